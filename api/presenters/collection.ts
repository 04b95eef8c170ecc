import { z } from 'zod';
import type { CollectionPermissions } from '../../domain/access/authorize';
import type { Collection } from '../../entities/Collection';
import type { Presented } from '../../platform/wire/to-wire';
import { roleSchema } from './common';
import type { Urls } from './urls';

export const collectionSchema = z
  .object({
    object: z.literal('collection').openapi({ description: 'always `collection`' }),
    id: z.string().openapi({ description: 'id of the collection' }),
    title: z.string().openapi({ description: 'title of the collection' }),
    description: z.string().optional().openapi({ description: 'short description; absent when none is set' }),
    organization: z.string().openapi({ description: 'id of the organization the collection belongs to' }),
    parent: z
      .string()
      .optional()
      .openapi({ description: 'id of the parent collection; absent at the root of the organization' }),
    defaultLevel: roleSchema.nullable().openapi({
      description:
        "role a member (not an admin or a guest) holds here and inside; null: the parent collection's, else their organization role",
    }),
    urls: z
      .object({
        location: z.string().openapi({ description: 'API URL of the collection' }),
        app: z.string().openapi({ description: 'URL of the collection in the app' }),
      })
      .openapi({ description: 'where the collection is found' }),
    permissions: z
      .object({
        view: z.boolean().openapi({ description: 'the caller may see the collection (role `read` or above)' }),
        admin: z
          .boolean()
          .openapi({ description: 'the caller may change, move, transfer or delete it and give roles on it' }),
        viewInviteLinks: z
          .boolean()
          .openapi({ description: "the caller may see the collection's invite links (admin)" }),
        create: z
          .boolean()
          .openapi({ description: 'the caller may create spaces and collections inside (role `create` or above)' }),
      })
      .openapi({ description: 'what the caller may do with the collection' }),
  })
  .openapi('Collection', { description: 'A folder of an organization that holds spaces and other collections.' });

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
