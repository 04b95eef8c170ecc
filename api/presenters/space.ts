import { z } from 'zod';
import type { SpacePermissions } from '../../domain/access/authorize';
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
    object: z.literal('space'),
    id: z.string(),
    title: z.string().max(TITLE_MAX),
    emoji: z.string().openapi({ description: 'empty when the space has no emoji' }),
    visibility: z.enum(SPACE_VISIBILITIES),
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: timestamp.optional().openapi({ description: 'only on a deleted space' }),
    editMode: z.enum(EDIT_MODES),
    urls: z.object({
      location: z.string(),
      app: z.string(),
      published: z.string(),
      public: z.string(),
    }),
    organization: z.string(),
    parent: z.string().optional().openapi({ description: 'absent at the root of the organization' }),
    language: z.string(),
    revision: z.string().openapi({ description: 'empty until the first revision is written' }),
    defaultLevel: roleSchema.nullable(),
    comments: z.number().int(),
    changeRequests: z.number().int(),
    changeRequestsOpen: z.number().int(),
    changeRequestsDraft: z.number().int(),
    mergeRules: z
      .object({ type: z.literal('inherit') })
      .openapi({ description: "GitBook 0.202: the organization's merge rules apply" }),
    permissions: z.object({
      view: z.boolean(),
      access: z.boolean(),
      admin: z.boolean(),
      viewInviteLinks: z.boolean(),
      edit: z.boolean(),
      triggerGitSync: z.boolean(),
      comment: z.boolean(),
      merge: z.boolean(),
      review: z.boolean(),
      installIntegration: z.boolean(),
    }),
  })
  .openapi('Space');

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
    mergeRules: { type: 'inherit' },
    permissions: { ...permissions },
  };
}
