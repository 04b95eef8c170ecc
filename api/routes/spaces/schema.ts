import { z } from 'zod';
import { LANGUAGES } from '../../../domain/spaces/languages';
import { TITLE_MAX } from '../../../domain/spaces/spaces';
import { EDIT_MODES, SPACE_VISIBILITIES } from '../../presenters/space';
import { paginationQuery } from '../../query';
import { atLeastOneOf, defaultLevel, emoji, pathId, resourceId, text } from '../../schemas';
import { spaceMergeRulesBody } from '../change-requests/merge-rules-schema';

export const spaceIdParams = { spaceId: pathId('space') };
export const memberSpacesParams = {
  organizationId: pathId('organization'),
  userId: pathId('member').openapi({ description: 'id of the member (their user id)' }),
};

const title = text({ min: 1, max: TITLE_MAX, trim: true }).openapi({
  description: `title of the space, 1 to ${TITLE_MAX} characters`,
});
const language = z.enum(LANGUAGES).openapi({ description: 'language code of the content' });
const editMode = z.enum(EDIT_MODES).openapi({
  description: '`live`: content edited directly; `locked`: direct edits and merges are refused',
});

export const listSpacesQuery = { ...paginationQuery };

export const memberSpacesQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).optional().openapi({ description: 'by space creation time, default desc' }),
};

export const createSpaceBody = z
  .object({
    title: title
      .optional()
      .openapi({ description: `title of the space, 1 to ${TITLE_MAX} characters; default \`Untitled\`` }),
    emoji: emoji.optional(),
    parent: resourceId
      .optional()
      .openapi({ description: 'id of the collection to create it in; omitted: the organization root' }),
    language: language.optional().openapi({ description: 'language code of the content; default `en`' }),
    editMode: editMode.optional().openapi({ description: '`live` (default) or `locked`' }),
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
    mergeRules: spaceMergeRulesBody.optional(),
  })
  .strict();

export const transferSpaceBody = atLeastOneOf(
  z
    .object({
      organization: resourceId
        .optional()
        .openapi({ description: 'id of the organization to move it to; omitted: its current organization' }),
      parent: resourceId.optional().openapi({
        description:
          'id of the collection to put it in; omitted: the root of another organization, else its current collection',
      }),
    })
    .strict(),
  ['organization', 'parent'],
);
