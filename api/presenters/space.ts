import { z } from 'zod';
import type { SpacePermissions } from '../../domain/access/authorize';
import { INHERITED_MERGE_RULES } from '../../domain/merge-rules/configuration';
import { spaceMergeRulesConfigurationSchema } from '../../domain/merge-rules/wire';
import type { SpaceCounters } from '../../domain/spaces/counters';
import { TITLE_MAX } from '../../domain/spaces/spaces';
import type { EditMode, Space, SpaceVisibility } from '../../entities/Space';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, roleSchema, timestamp } from './common';
import { siteItemAddress } from './site-urls';
import type { Urls } from './urls';

export const SPACE_VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
  'in-collection',
  'private',
] as const satisfies readonly SpaceVisibility[];
export const EDIT_MODES = ['live', 'locked'] as const satisfies readonly EditMode[];

export const spaceSchema = z
  .object({
    object: z.literal('space').openapi({ description: 'always `space`' }),
    id: z.string().openapi({ description: 'id of the space' }),
    title: z
      .string()
      .max(TITLE_MAX)
      .openapi({ description: `title of the space, at most ${TITLE_MAX} characters` }),
    emoji: z.string().openapi({ description: 'empty when the space has no emoji' }),
    visibility: z.enum(SPACE_VISIBILITIES).openapi({ description: 'who can read the space; new spaces are `private`' }),
    createdAt: timestamp.openapi({ description: 'when the space was created (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when its metadata last changed (ISO 8601 date-time)' }),
    deletedAt: timestamp.optional().openapi({ description: 'only on a deleted space' }),
    editMode: z.enum(EDIT_MODES).openapi({
      description: '`live`: its content is edited directly; `locked`: direct edits and merges are refused (409)',
    }),
    urls: z
      .object({
        location: z.string().openapi({ description: 'API URL of the space' }),
        app: z.string().openapi({ description: 'URL of the space in the app' }),
        published: z.string().openapi({
          description: 'where readers find it: its page in the oldest published site showing it, else `/s/{spaceId}`',
        }),
        public: z.string().openapi({ description: 'the same address as `published`' }),
      })
      .openapi({ description: 'where the space is found' }),
    organization: z.string().openapi({ description: 'id of the organization the space belongs to' }),
    parent: z
      .string()
      .optional()
      .openapi({ description: 'id of the collection holding the space; absent at the root of the organization' }),
    language: z.string().openapi({ description: 'language code of its content (`en` by default)' }),
    revision: z.string().openapi({ description: 'empty until the first revision is written' }),
    defaultLevel: roleSchema.nullable().openapi({
      description:
        "role a member (not an admin or a guest) holds on the space; null: its collections', else their organization role",
    }),
    comments: z
      .number()
      .int()
      .openapi({ description: 'open comments on the space itself (not on its change requests)' }),
    changeRequests: z.number().int().openapi({ description: 'change requests of the space, whatever their status' }),
    changeRequestsOpen: z.number().int().openapi({ description: 'change requests with status `open`' }),
    changeRequestsDraft: z.number().int().openapi({ description: 'change requests with status `draft`' }),
    mergeRules: spaceMergeRulesConfigurationSchema,
    permissions: z
      .object({
        view: z.boolean().openapi({ description: 'may read the space (role `read` or above)' }),
        access: z.boolean().openapi({ description: 'may open the space in the app (role `read` or above)' }),
        admin: z
          .boolean()
          .openapi({ description: 'may change, move, transfer, delete it and give roles on it (role `admin`)' }),
        viewInviteLinks: z.boolean().openapi({ description: "may see the space's invite links (role `admin`)" }),
        edit: z.boolean().openapi({ description: 'may edit its content and change requests (role `edit` or above)' }),
        triggerGitSync: z.boolean().openapi({ description: 'may start a Git sync (role `edit` or above)' }),
        comment: z.boolean().openapi({ description: 'may comment (role `comment` or above)' }),
        merge: z.boolean().openapi({ description: 'may merge change requests (role `review` or above)' }),
        review: z.boolean().openapi({ description: 'may review change requests (role `review` or above)' }),
        installIntegration: z
          .boolean()
          .openapi({ description: 'may install integrations on the space (role `admin`)' }),
      })
      .openapi({ description: 'what the caller may do with the space, from their role on it' }),
  })
  .openapi('Space', { description: 'A body of documentation: pages, files and their revisions, in an organization.' });

export function presentSpace(
  space: Space,
  permissions: SpacePermissions,
  counters: SpaceCounters,
  urls: Urls,
): Presented<typeof spaceSchema> {
  const site = counters.publishedIn;
  const published = site
    ? siteItemAddress(site.site, [site.sectionPath, site.path], urls)
    : urls.published(`/s/${space.id}`);
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji ?? '',
    visibility: space.visibility,
    createdAt: iso(space.createdAt),
    updatedAt: iso(space.updatedAt),
    deletedAt: isoOrNull(space.deletedAt),
    editMode: space.editMode,
    urls: {
      location: urls.api(`/spaces/${space.id}`),
      app: urls.app(`/o/${space.organizationId}/s/${space.id}`),
      published,
      public: published,
    },
    organization: space.organizationId,
    parent: space.parentId,
    language: space.language,
    revision: space.revisionId ?? '',
    defaultLevel: space.defaultLevel,
    comments: counters.comments,
    changeRequests: counters.changeRequests,
    changeRequestsOpen: counters.changeRequestsOpen,
    changeRequestsDraft: counters.changeRequestsDraft,
    mergeRules: space.mergeRules ?? INHERITED_MERGE_RULES,
    permissions: { ...permissions },
  };
}
