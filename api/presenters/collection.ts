import { z } from 'zod';
import type { CollectionPermissions } from '../../domain/access/authorize';
import type { Collection } from '../../entities/Collection';
import type { Presented } from '../../platform/wire/to-wire';
import { roleSchema } from './common';
import type { Urls } from './urls';

export const collectionSchema = z
  .object({
    object: z.literal('collection'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    organization: z.string(),
    parent: z.string().optional().openapi({ description: 'absent at the root of the organization' }),
    defaultLevel: roleSchema.nullable(),
    urls: z.object({ location: z.string(), app: z.string() }),
    permissions: z.object({ view: z.boolean(), admin: z.boolean(), viewInviteLinks: z.boolean(), create: z.boolean() }),
  })
  .openapi('Collection');

export function presentCollection(
  collection: Collection,
  permissions: CollectionPermissions,
  urls: Urls,
): Presented<typeof collectionSchema> {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    description: collection.description,
    organization: collection.organizationId,
    parent: collection.parentId,
    defaultLevel: collection.defaultLevel,
    urls: {
      location: urls.api(`/collections/${collection.id}`),
      app: urls.app(`/o/${collection.organizationId}/c/${collection.id}`),
    },
    permissions: { ...permissions },
  };
}
