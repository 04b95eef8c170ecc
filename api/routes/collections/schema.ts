import { z } from 'zod';
import type { Placement } from '../../../domain/collections/ordering';
import { paginationQuery, queryBoolean } from '../../query';
import { atLeastOneOf, defaultLevel, exactlyOneOf, pathId, resourceId, text } from '../../schemas';

export const collectionIdParams = { collectionId: pathId('collection') };

const title = text({ min: 1, max: 50, trim: true }).openapi({
  description: 'title of the collection, 1 to 50 characters',
});

export const listCollectionsQuery = {
  ...paginationQuery,
  nested: queryBoolean.optional().openapi({ description: 'default true; false lists only top-level collections' }),
};

export const createCollectionBody = z
  .object({
    title: title.optional().openapi({ description: 'title of the collection; default `Untitled collection`' }),
    parent: resourceId
      .optional()
      .openapi({ description: 'id of the collection to create it in; omitted: the organization root' }),
  })
  .strict();

export const patchCollectionBody = z
  .object({
    title: title.optional(),
    description: text({ max: 100, trim: true, characters: 'lines' })
      .nullable()
      .optional()
      .openapi({ description: 'short description, at most 100 characters; null removes it' }),
    defaultLevel: defaultLevel.optional(),
  })
  .strict();

export const listCollectionSpacesQuery = { ...paginationQuery };

/** A sibling to place an item next to: a space or a collection under the target parent. */
const anchor = z.discriminatedUnion(
  'type',
  [
    z
      .object({
        type: z.literal('space').openapi({ description: 'the sibling is a space' }),
        space: resourceId.openapi({ description: 'id of the sibling space' }),
      })
      .strict(),
    z
      .object({
        type: z.literal('collection').openapi({ description: 'the sibling is a collection' }),
        collection: resourceId.openapi({ description: 'id of the sibling collection' }),
      })
      .strict(),
  ],
  {
    errorMap: (issue, ctx) => ({
      message: issue.code === 'invalid_union_discriminator' ? 'must be one of space, collection' : ctx.defaultError,
    }),
  },
);

export const positionSchema = exactlyOneOf(
  z
    .object({
      before: anchor.optional().openapi({ description: 'place it right before this sibling' }),
      after: anchor.optional().openapi({ description: 'place it right after this sibling' }),
    })
    .strict(),
  ['before', 'after'],
).openapi('Position', {
  description:
    'Where an item goes among its new siblings: before or after one space or collection under the same parent.',
});

export type PositionInput = z.output<typeof positionSchema>;

export function toPlacement(position: PositionInput | undefined): Placement | undefined {
  if (!position) return undefined;
  const side = position.before ? 'before' : 'after';
  const a = (position.before ?? position.after)!;
  return {
    side,
    anchor: a.type === 'space' ? { kind: 'space', id: a.space } : { kind: 'collection', id: a.collection },
  };
}

/** Body of both move operations: the new parent (null: organization root, omitted: unchanged) and/or a position. */
export const moveBody = atLeastOneOf(
  z
    .object({
      parent: resourceId
        .nullable()
        .optional()
        .openapi({ description: 'id of the new parent collection; null: the organization root; omitted: unchanged' }),
      position: positionSchema.optional(),
    })
    .strict(),
  ['parent', 'position'],
);

export const transferCollectionBody = z
  .object({ organization: resourceId.openapi({ description: 'id of the organization to transfer it to' }) })
  .strict();
