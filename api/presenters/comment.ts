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
    emoji: z.string(),
    count: z.number().int(),
    users: z.array(z.object({ user: userSchema, reactedAt: timestamp })),
  })
  .openapi('CommentReaction');

const bodySchema = z
  .object({
    markdown: z.string().optional().openapi({ description: 'format=markdown (the default)' }),
    document: documentSchema.optional().openapi({ description: 'format=document' }),
  })
  .openapi('CommentBody', { description: 'empty ({}) for an empty body' });

const replierSchema = z
  .object({ user: userSchema, count: z.number().int(), updatedAt: timestamp })
  .openapi('CommentReplier');

const permissionsSchema = z.object({ view: z.boolean(), edit: z.boolean(), reply: z.boolean(), delete: z.boolean() });

const pageTargetSchema = z.object({
  id: z.string(),
  title: z.string().openapi({ description: 'empty when the page cannot be read any more' }),
  emoji: z.string().optional(),
  createdAt: timestamp.optional(),
  updatedAt: timestamp.optional(),
  path: z.string().openapi({ description: 'empty when the page cannot be read any more' }),
  outdated: z.boolean().openapi({ description: 'the page changed in the content since the comment was posted' }),
});

export const commentSchema = z
  .object({
    object: z.literal('comment'),
    id: z.string(),
    postedBy: userSchema,
    postedAt: timestamp,
    editedAt: timestamp.optional(),
    reactions: z.array(reactionSchema),
    replies: z.number().int(),
    repliers: z
      .array(replierSchema)
      .openapi({ description: 'GitBook 0.202: who replied, the most recently active first' }),
    body: bodySchema,
    target: z.object({
      page: pageTargetSchema.optional(),
      node: z.object({ id: z.string(), preview: z.string().optional() }).optional(),
      tableCell: z.object({ record: z.string(), definition: z.string() }).optional(),
      changeRequest: z.string().optional().openapi({ description: 'id of the change request, for its comments' }),
      space: z.string(),
      revision: z
        .string()
        .openapi({ description: 'the revision the target was read from when the comment was posted' }),
    }),
    urls: z.object({ location: z.string() }),
    permissions: permissionsSchema,
    status: z.enum(COMMENT_STATUSES),
    resolvedAt: timestamp.nullable(),
    resolvedBy: userSchema.nullable(),
  })
  .openapi('Comment');

export const commentReplySchema = z
  .object({
    object: z.literal('comment-reply'),
    id: z.string(),
    postedBy: userSchema,
    postedAt: timestamp,
    editedAt: timestamp.optional(),
    reactions: z.array(reactionSchema),
    body: bodySchema,
    urls: z.object({ location: z.string() }),
    permissions: permissionsSchema,
  })
  .openapi('CommentReply');

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
