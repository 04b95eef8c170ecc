import { z } from 'zod';
import { LANGUAGES } from '../../../domain/spaces/languages';
import { TITLE_MAX } from '../../../domain/spaces/spaces';
import { EDIT_MODES, SPACE_VISIBILITIES } from '../../presenters/space';
import { paginationQuery } from '../../query';
import { atLeastOneOf, defaultLevel, emoji, pathId, resourceId, text } from '../../schemas';

export const spaceIdParams = { spaceId: pathId('space') };
export const memberSpacesParams = { organizationId: pathId('organization'), userId: pathId('member') };

const title = text({ min: 1, max: TITLE_MAX, trim: true });
const language = z.enum(LANGUAGES);
const editMode = z.enum(EDIT_MODES);

export const listSpacesQuery = { ...paginationQuery };

export const memberSpacesQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).optional().openapi({ description: 'by space creation time, default desc' }),
};

export const createSpaceBody = z
  .object({
    title: title.optional(),
    emoji: emoji.optional(),
    parent: resourceId.optional(),
    language: language.optional(),
    editMode: editMode.optional(),
  })
  .strict();

export const getSpaceQuery = {
  shareKey: text({ max: 256 })
    .optional()
    .openapi({ description: 'share-link key; resolves published URLs of share-link sites' }),
};

export const patchSpaceBody = z
  .object({
    editMode: editMode.optional(),
    title: title.optional(),
    defaultLevel: defaultLevel.optional(),
    language: language.optional(),
    emoji: emoji.nullable().optional(),
    visibility: z.enum(SPACE_VISIBILITIES).optional().openapi({
      description:
        "extension: the space's ContentVisibility (`in-collection` only for a space in a collection); integrations installed on the space get space_visibility_updated",
    }),
  })
  .strict();

export const transferSpaceBody = atLeastOneOf(
  z.object({ organization: resourceId.optional(), parent: resourceId.optional() }).strict(),
  ['organization', 'parent'],
);
