import { z } from 'zod';
import type { CollectionPermissions } from '../../domain/access/authorize';
import type { Collection } from '../../entities/Collection';
import { roleSchema } from './common';
import type { Urls } from './urls';

export const collectionSchema = z.object({
  object: z.literal('collection'),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  organization: z.string(),
  parent: z.string().optional(),
  defaultLevel: roleSchema.nullable(),
  urls: z.object({ location: z.string(), app: z.string() }),
  permissions: z.object({ view: z.boolean(), admin: z.boolean(), viewInviteLinks: z.boolean(), create: z.boolean() }),
}).openapi('Collection');

export function presentCollection(collection: Collection, permissions: CollectionPermissions, urls: Urls): z.infer<typeof collectionSchema> {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description !== null ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parentId ? { parent: collection.parentId } : {}),
    defaultLevel: collection.defaultLevel,
    urls: {
      location: urls.api(`/collections/${collection.id}`),
      app: urls.app(`/o/${collection.organizationId}/c/${collection.id}`),
    },
    permissions: { ...permissions },
  };
}
