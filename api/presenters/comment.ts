import { z } from 'zod';
import type { CommentPermissions } from '../../domain/access/authorize';
import type { CommentDetails, ReactionGroup, ReplyDetails } from '../../domain/comments/details';
import { markdownToDocument } from '../../domain/content/document';
import type { Comment } from '../../entities/Comment';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, timestamp } from './common';
import { documentSchema } from './document';
import { presentDocument } from './gitbook-document';
import type { Urls } from './urls';
import { presentUser, userSchema } from './user';

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export const BODY_FORMATS = ['markdown', 'document'] as const;
export type BodyFormat = (typeof BODY_FORMATS)[number];

const reactionSchema = z
  .object({
    emoji: z.string().openapi({ description: 'the emoji (or shortcode) reacted with' }),
    count: z.number().int().openapi({ description: 'how many users reacted with it' }),
    users: z
      .array(
        z.object({
          user: userSchema,
          reactedAt: timestamp.openapi({ description: 'when they reacted (ISO 8601 date-time)' }),
        }),
      )
      .openapi({ description: 'who reacted with it, and when' }),
  })
  .openapi('CommentReaction', { description: 'One emoji reacted on a comment or reply, with who used it' });

const bodySchema = z
  .object({
    markdown: z.string().optional().openapi({ description: 'format=markdown (the default)' }),
    document: documentSchema.optional(),
  })
  .openapi('CommentBody', {
    description:
      'The body of a comment or reply: `markdown` (the default) or, with format=document, `document`; empty ({}) for an empty body',
  });

const replierSchema = z
  .object({
    user: userSchema,
    count: z.number().int().openapi({ description: 'how many replies they posted in the thread' }),
    updatedAt: timestamp.openapi({ description: 'when they last posted or edited a reply (ISO 8601 date-time)' }),
  })
  .openapi('CommentReplier', { description: 'Someone who replied to a comment, with their reply count' });

const permissionsSchema = z
  .object({
    view: z.boolean().openapi({ description: 'the caller can read it (read access to the space)' }),
    edit: z.boolean().openapi({ description: 'the caller can change its body: only its author, with comment access' }),
    reply: z.boolean().openapi({ description: 'the caller can reply, resolve and react (comment access)' }),
    delete: z.boolean().openapi({ description: 'the caller can delete it: its author, or an admin of the space' }),
  })
  .openapi({ description: 'what the caller may do with it' });

const pageTargetSchema = z.object({
  id: z.string().openapi({ description: 'id of the page commented on' }),
  title: z.string().openapi({ description: 'empty when the page cannot be read any more' }),
  emoji: z.string().optional().openapi({ description: "the page's emoji, when it has one and can be read" }),
  createdAt: timestamp.optional().openapi({ description: 'when the page was created; absent when it cannot be read' }),
  updatedAt: timestamp
    .optional()
    .openapi({ description: 'when the page was last edited; absent when it cannot be read' }),
  path: z.string().openapi({ description: 'empty when the page cannot be read any more' }),
  outdated: z.boolean().openapi({ description: 'the page changed in the content since the comment was posted' }),
});

export const commentSchema = z
  .object({
    object: z.literal('comment').openapi({ description: 'always `comment`' }),
    id: z.string().openapi({ description: 'id of the comment' }),
    postedBy: userSchema,
    postedAt: timestamp.openapi({ description: 'when it was posted (ISO 8601 date-time)' }),
    editedAt: timestamp.optional().openapi({ description: 'when its body was last edited; absent if never' }),
    reactions: z.array(reactionSchema).openapi({ description: 'reactions on the comment, one entry per emoji' }),
    replies: z.number().int().openapi({ description: 'number of replies' }),
    repliers: z
      .array(replierSchema)
      .openapi({ description: 'GitBook 0.202: who replied, the most recently active first' }),
    body: bodySchema,
    target: z
      .object({
        page: pageTargetSchema
          .optional()
          .openapi({ description: 'the page commented on; absent for a general comment' }),
        node: z
          .object({
            id: z.string().openapi({ description: 'id of the node of the page' }),
            preview: z
              .string()
              .optional()
              .openapi({ description: "when the node id is a heading anchor: that heading's text at posting time" }),
          })
          .optional()
          .openapi({ description: 'the node of the page commented on, if any' }),
        tableCell: z
          .object({
            record: z.string().openapi({ description: 'the table record (row) of the cell' }),
            definition: z.string().openapi({ description: 'the table definition (column) of the cell' }),
          })
          .optional()
          .openapi({ description: 'the table cell commented on, if any' }),
        changeRequest: z.string().optional().openapi({ description: 'id of the change request, for its comments' }),
        space: z.string().openapi({ description: 'id of the space' }),
        revision: z
          .string()
          .openapi({ description: 'the revision the target was read from when the comment was posted' }),
      })
      .openapi({ description: 'what the comment is about: the space or change request, and a page, node or cell' }),
    urls: z
      .object({ location: z.string().openapi({ description: 'URL of the comment in this API' }) })
      .openapi({ description: 'where the comment is' }),
    permissions: permissionsSchema,
    status: z.enum(COMMENT_STATUSES).openapi({ description: 'open, or resolved' }),
    resolvedAt: timestamp.nullable().openapi({ description: 'when it was resolved; null while open' }),
    resolvedBy: userSchema.nullable().openapi({ description: 'who resolved it; null while open' }),
  })
  .openapi('Comment', {
    description: 'A comment on a space or a change request, optionally on a page, a node of it or a table cell',
  });

export const commentReplySchema = z
  .object({
    object: z.literal('comment-reply').openapi({ description: 'always `comment-reply`' }),
    id: z.string().openapi({ description: 'id of the reply' }),
    postedBy: userSchema,
    postedAt: timestamp.openapi({ description: 'when it was posted (ISO 8601 date-time)' }),
    editedAt: timestamp.optional().openapi({ description: 'when its body was last edited; absent if never' }),
    reactions: z.array(reactionSchema).openapi({ description: 'reactions on the reply, one entry per emoji' }),
    body: bodySchema,
    urls: z
      .object({ location: z.string().openapi({ description: 'URL of the reply in this API' }) })
      .openapi({ description: 'where the reply is' }),
    permissions: permissionsSchema,
  })
  .openapi('CommentReply', { description: 'A reply in the thread of a comment' });

/** The API path of a comment list: the space's, or a change request's. */
export function commentsPath(comment: Pick<Comment, 'spaceId' | 'changeRequestId'>): string {
  return comment.changeRequestId
    ? `/spaces/${comment.spaceId}/change-requests/${comment.changeRequestId}/comments`
    : `/spaces/${comment.spaceId}/comments`;
}

function presentBody(markdown: string, format: BodyFormat): Presented<typeof bodySchema> {
  if (!markdown) return {};
  return format === 'document' ? { document: presentDocument(markdownToDocument(markdown)) } : { markdown };
}

function presentReactions(groups: ReactionGroup[], urls: Urls): Array<Presented<typeof reactionSchema>> {
  return groups.map((g) => ({
    emoji: g.emoji,
    count: g.users.length,
    users: g.users.map((u) => ({ user: presentUser(u.user, urls), reactedAt: iso(u.reactedAt) })),
  }));
}

function presentPermissions(p: CommentPermissions): Presented<typeof permissionsSchema> {
  return { view: p.view, edit: p.edit, reply: p.reply, delete: p.delete };
}

function presentPageTarget(target: NonNullable<CommentDetails['page']>): Presented<typeof pageTargetSchema> {
  const page = target.page;
  if (!page)
    return {
      id: target.id,
      title: '',
      path: '',
      outdated: target.outdated,
    };
  return {
    id: target.id,
    title: page.version.title,
    emoji: page.version.emoji,
    createdAt: page.version.createdAt,
    updatedAt: page.version.updatedAt,
    path: page.path,
    outdated: target.outdated,
  };
}

export function presentComment(
  details: CommentDetails,
  permissions: CommentPermissions,
  format: BodyFormat,
  urls: Urls,
): Presented<typeof commentSchema> {
  const { comment: c } = details;
  return {
    object: 'comment',
    id: c.id,
    postedBy: presentUser(details.postedBy, urls),
    postedAt: iso(c.postedAt),
    editedAt: isoOrNull(c.editedAt),
    reactions: presentReactions(details.reactions, urls),
    replies: c.replies,
    repliers: details.repliers.map((r) => ({
      user: presentUser(r.user, urls),
      count: r.count,
      updatedAt: iso(r.updatedAt),
    })),
    body: presentBody(c.body, format),
    target: {
      page: details.page ? presentPageTarget(details.page) : null,
      node: c.nodeId !== null ? { id: c.nodeId, preview: c.nodePreview } : null,
      tableCell:
        c.tableCellRecord !== null && c.tableCellDefinition !== null
          ? { record: c.tableCellRecord, definition: c.tableCellDefinition }
          : null,
      changeRequest: c.changeRequestId,
      space: c.spaceId,
      revision: c.revisionId,
    },
    urls: { location: urls.api(`${commentsPath(c)}/${c.id}`) },
    permissions: presentPermissions(permissions),
    status: c.status,
    resolvedAt: isoOrNull(c.resolvedAt),
    resolvedBy: details.resolvedBy ? presentUser(details.resolvedBy, urls) : null,
  };
}

/** `comment` is the reply's parent, for its location. */
export function presentCommentReply(
  details: ReplyDetails,
  comment: Comment,
  permissions: CommentPermissions,
  format: BodyFormat,
  urls: Urls,
): Presented<typeof commentReplySchema> {
  const { reply: r } = details;
  return {
    object: 'comment-reply',
    id: r.id,
    postedBy: presentUser(details.postedBy, urls),
    postedAt: iso(r.postedAt),
    editedAt: isoOrNull(r.editedAt),
    reactions: presentReactions(details.reactions, urls),
    body: presentBody(r.body, format),
    urls: { location: urls.api(`${commentsPath(comment)}/${comment.id}/replies/${r.id}`) },
    permissions: presentPermissions(permissions),
  };
}
