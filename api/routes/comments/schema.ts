import { z } from 'zod';
import { documentToMarkdown } from '../../../domain/content/document-to-markdown';
import { BODY_FORMATS, COMMENT_STATUSES } from '../../presenters/comment';
import { documentInputSchema } from '../../presenters/document';
import { paginationQuery, queryList } from '../../query';
import { pathId, resourceId, text } from '../../schemas';

export const MARKDOWN_MAX = 65536;
export const REACTIONS_MAX = 20;

const markdown = text({ min: 1, max: MARKDOWN_MAX, characters: 'lines' }).openapi({
  description: `the body in markdown, 1 to ${MARKDOWN_MAX} characters`,
});

/** A document is kept as its markdown, under the markdown's rules; an empty one is an empty body. */
export const documentAsMarkdown = documentInputSchema
  .transform(documentToMarkdown)
  .superRefine((converted, ctx) => {
    if (converted) for (const issue of markdown.safeParse(converted).error?.issues ?? []) ctx.addIssue(issue);
  })
  .openapi({
    description: `the body as GitBook's JSON document, converted to markdown (at most ${MARKDOWN_MAX} characters) and stored so`,
  });

/**
 * A comment or reply body in each form GitBook's document allows: `{markdown}`, `{document}` or `{}`
 * (empty). Read as `{markdown}`, '' for an empty body.
 */
const body = z
  .object({ markdown: markdown.optional(), document: documentAsMarkdown.optional() })
  .strict()
  .superRefine((b, ctx) => {
    if (b.markdown !== undefined && b.document !== undefined)
      ctx.addIssue({ code: 'custom', message: 'must have markdown or document, not both' });
  })
  .transform((b) => ({ markdown: b.markdown ?? b.document ?? '' }))
  .openapi({
    description: '{markdown}, {document} (stored as its markdown) or {} for an empty body',
    maxProperties: 1,
  });

const emoji = text({ min: 1, max: 64 }, z.string().regex(/^\S*$/)).openapi({
  description: 'an emoji (or shortcode): 1..64 characters, no spaces or control characters',
});
const reactions = z.array(emoji).max(REACTIONS_MAX);

const reactionChanges = {
  addedReactions: reactions
    .optional()
    .openapi({ description: "emoji to add as the caller's reactions; adding one twice counts once" }),
  removedReactions: reactions
    .optional()
    .openapi({ description: "emoji to remove from the caller's reactions; removing one never added is harmless" }),
};

export const createCommentBody = z
  .object({
    page: resourceId.optional().openapi({ description: 'id of a page of the content commented on' }),
    node: text({ min: 1, max: 128 }).optional().openapi({ description: 'id of a node of the page (requires page)' }),
    tableCell: z
      .object({
        record: text({ min: 1, max: 128 }).openapi({ description: 'the table record (row) of the cell' }),
        definition: text({ min: 1, max: 128 }).openapi({ description: 'the table definition (column) of the cell' }),
      })
      .strict()
      .optional()
      .openapi({ description: 'a cell of a table of the page commented on (requires page)' }),
    body,
  })
  .strict()
  // documents the rule domain/comments/targets.ts enforces ("node: requires page"): page, or neither node nor tableCell
  .openapi({
    anyOf: [{ required: ['page'] }, { not: { anyOf: [{ required: ['node'] }, { required: ['tableCell'] }] } }],
  });

export const updateCommentBody = z
  .object({
    resolved: z.boolean().optional().openapi({ description: 'true resolves the comment, false reopens it' }),
    body: body.optional(),
    ...reactionChanges,
  })
  .strict();

export const createReplyBody = z.object({ body }).strict();

export const updateReplyBody = z.object({ body: body.optional(), ...reactionChanges }).strict();

/** The change request form of a reply update can also resolve or reopen the thread. */
export const updateChangeRequestReplyBody = updateReplyBody
  .extend({
    resolved: z.boolean().optional().openapi({ description: 'resolves (true) or reopens (false) the parent comment' }),
  })
  .strict();

const format = z
  .enum(BODY_FORMATS)
  .optional()
  .openapi({ description: 'form of the bodies: markdown (default) or document' });

export const formatQuery = { format };

export const listCommentsQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).optional().openapi({ description: 'by posting time; default desc' }),
  status: z
    .enum(['all', ...COMMENT_STATUSES])
    .optional()
    .openapi({ description: 'default all' }),
  format,
  targetPage: resourceId.optional().openapi({ description: 'only comments on this page' }),
  authors: queryList(resourceId)
    .optional()
    .openapi({ description: 'only comments posted by these users (repeated or comma separated)' }),
};

export const listRepliesQuery = { ...paginationQuery, format };

export const listCommentersQuery = { ...paginationQuery };

const commentId = pathId('comment').openapi({ description: 'id of the comment' });
export const commentIdParams = { commentId };
export const replyIdParams = {
  commentId,
  commentReplyId: pathId('comment reply').openapi({ description: 'id of a reply of that comment' }),
};
