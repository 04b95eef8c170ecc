/**
 * Comments, replies and reactions, on a space and on a change request: each operation is defined
 * once in `commentOperations` and mounted for both forms.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { commentersQuery } from '../../../domain/comments/commenters';
import {
  commentsQuery,
  createComment,
  deleteComment,
  findComment,
  updateComment,
} from '../../../domain/comments/comments';
import { CommentDetails, describeComments, describeReplies } from '../../../domain/comments/details';
import { applyReactions, hasReactionChanges } from '../../../domain/comments/reactions';
import { createReply, deleteReply, editReply, findReply, repliesQuery } from '../../../domain/comments/replies';
import type { CommentScope } from '../../../domain/comments/scope';
import { notFound } from '../../../domain/errors';
import { Comment } from '../../../entities/Comment';
import type { CommentReply } from '../../../entities/CommentReply';
import type { Member } from '../../../entities/Member';
import { lockRow } from '../../../platform/db/lock-row';
import { Db, inTransaction } from '../../../platform/db/transactions';
import { digestOf, hasIfMatch, requireMatch, taggedAnswer, versionTag } from '../../middleware/conditional';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import {
  BodyFormat,
  commentReplySchema,
  commentSchema,
  presentComment,
  presentCommentReply,
} from '../../presenters/comment';
import { listSchema, presentList } from '../../presenters/common';
import { memberSchema, presentMembers } from '../../presenters/member';
import { Urls } from '../../presenters/urls';
import { CommentForm, changeRequestCommentForm, spaceCommentForm } from './forms';
import {
  commentIdParams,
  createCommentBody,
  createReplyBody,
  formatQuery,
  listCommentersQuery,
  listCommentsQuery,
  listRepliesQuery,
  replyIdParams,
  updateChangeRequestReplyBody,
  updateCommentBody,
  updateReplyBody,
} from './schema';

const commentTarget = (scope: CommentScope, authorId: string) => ({
  kind: 'comment' as const,
  space: scope.space,
  authorId,
});

/** The scope named by the path, visible to the caller (404 otherwise), and the comment in it. */
async function loadComment(
  form: CommentForm,
  access: AccessContext,
  params: Record<string, string>,
): Promise<{ scope: CommentScope; comment: Comment }> {
  const scope = await form.load(access, params);
  const comment = await findComment(access.db, scope, params.commentId);
  if (!comment) throw notFound('comment');
  return { scope, comment };
}

/** As `loadComment`, with the reply named by the path, or null when the comment has no such reply. */
async function loadReply(form: CommentForm, access: AccessContext, params: Record<string, string>) {
  const { scope, comment } = await loadComment(form, access, params);
  return { scope, comment, reply: await findReply(access.db, comment.id, params.commentReplyId) };
}

/** Comments with their details gathered at once, each with the caller's permissions. */
export async function presentComments(
  access: AccessContext,
  scope: CommentScope,
  comments: Comment[],
  format: BodyFormat,
  urls: Urls,
) {
  const details = await describeComments(access.db, scope, comments);
  return Promise.all(
    details.map(async (d) =>
      presentComment(d, await permissionsOf(access, commentTarget(scope, d.comment.postedById)), format, urls),
    ),
  );
}

/**
 * One comment's answer and its ETag: the row's version (its body, status and reply count), the caller's
 * permissions, and a digest of what the answer gathers from other rows: reactions, repliers, the page it targets.
 */
async function presentTaggedComment(
  access: AccessContext,
  scope: CommentScope,
  comment: Comment,
  format: BodyFormat,
  urls: Urls,
) {
  const { d, permissions } = await describedFor(access, scope, comment);
  return { body: presentComment(d, permissions, format, urls), etag: commentTag(d, permissions) };
}

async function describedFor(access: AccessContext, scope: CommentScope, comment: Comment) {
  const [d] = await describeComments(access.db, scope, [comment]);
  return { d, permissions: await permissionsOf(access, commentTarget(scope, comment.postedById)) };
}

function commentTag(d: CommentDetails, permissions: object): string {
  const gathered = digestOf([
    d.reactions.map((g) => [g.emoji, g.users.map((u) => [u.user.id, u.reactedAt.getTime()])]),
    d.repliers.map((r) => [r.user.id, r.count, r.updatedAt.getTime()]),
    d.page && [d.page.id, d.page.outdated, d.page.page?.entry.v ?? null, d.page.page?.path ?? null],
  ]);
  return versionTag(d.comment.version, permissions, gathered);
}

/**
 * `If-Match` of a write to a comment, under the comment's row lock (reactions and replies take it too); with the
 * header the comment is locked and compared (a gone one: 412), without it nothing is read.
 */
async function matchComment(
  req: Request,
  db: Db,
  access: AccessContext,
  scope: CommentScope,
  commentId: string,
): Promise<void> {
  if (!hasIfMatch(req)) return;
  const locked = await lockRow(db, Comment, { id: commentId });
  const current = locked && (await describedFor(access.within(db), scope, locked));
  requireMatch(req, current ? commentTag(current.d, current.permissions) : null);
}

/** Replies of one comment with their details gathered at once, each with the caller's permissions. */
async function presentReplies(
  access: AccessContext,
  scope: CommentScope,
  comment: Comment,
  replies: CommentReply[],
  format: BodyFormat,
  urls: Urls,
) {
  const details = await describeReplies(access.db, replies);
  return Promise.all(
    details.map(async (d) =>
      presentCommentReply(
        d,
        comment,
        await permissionsOf(access, commentTarget(scope, d.reply.postedById)),
        format,
        urls,
      ),
    ),
  );
}

export function commentRoutes(api: ApiBuilder): void {
  commentOperations(api, spaceCommentForm);
  commentOperations(api, changeRequestCommentForm);
}

function commentOperations(api: ApiBuilder, form: CommentForm): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const tags = [form.tag];
  const commentPath = `${form.path}/{commentId}`;
  const replyPath = `${commentPath}/replies/{commentReplyId}`;
  const isChangeRequest = form.name === 'ChangeRequest';
  // Only the change request form accepts `resolved`; both forms parse to the same shape.
  const replyUpdateSchema: z.ZodType<
    z.output<typeof updateChangeRequestReplyBody>,
    z.ZodTypeDef,
    unknown
  > = isChangeRequest ? updateChangeRequestReplyBody : updateReplyBody;

  api.op(
    {
      method: 'get',
      path: form.path,
      operationId: `list${form.name}Comments`,
      description:
        'Lists the comments of the space or change request named by the path, paginated, newest first unless `order=asc`; `status`, `targetPage` and `authors` filter them. Each comes with what the caller may do with it (`permissions`). Needs read access to the space. Changes nothing.',
      tags,
      summary: 'List comments, newest first by default',
      params: form.params,
      query: listCommentsQuery,
      responses: { 200: { description: 'comments', schema: listSchema(commentSchema) } },
    },
    async ({ params, query, access }) => {
      const scope = await form.load(access, params);
      await authorize(access, { kind: 'space', space: scope.space }, 'view');
      const filters = { status: query.status ?? 'all', pageId: query.targetPage, authorIds: query.authors ?? [] };
      const direction = query.order === 'asc' ? 'ASC' : 'DESC';
      const page = await paginate(
        commentsQuery(ds.manager, scope, filters),
        [
          { column: 'c.postedAt', direction, value: (c) => c.postedAt },
          { column: 'c.id', direction, value: (c) => c.id },
        ],
        {
          limit: query.limit,
          page: query.page,
          scope: `comments:${scope.space.id}:${scope.changeRequest?.id ?? ''}:${direction}:${filters.status}:${filters.pageId ?? ''}:${filters.authorIds.join(',')}`,
        },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(page, await presentComments(access, scope, page.items, query.format ?? 'markdown', urls)),
      };
    },
  );

  api.op(
    {
      method: 'post',
      path: form.path,
      operationId: `create${form.name}Comment`,
      description:
        'Posts a comment on the space or change request named by the path, about it as a whole or about a page of its current content (and a node or table cell of that page); the revision the page was read in is kept with it. Needs `comment` on the space. Adds one open comment and updates the open comment counts; answers 200 with the comment.',
      tags,
      summary: 'Post a comment, optionally on a page, a node of it or a table cell',
      params: form.params,
      query: formatQuery,
      body: createCommentBody,
      responses: { 200: { description: 'the new comment', schema: commentSchema } },
    },
    async ({ params, query, body, caller, access }) => {
      const scope = await form.load(access, params);
      await authorize(access, { kind: 'space', space: scope.space }, 'comment');
      const comment = await inTransaction(ds, (db) => createComment(db, scope, body, caller.userId));
      return {
        status: 200,
        body: (await presentComments(access, scope, [comment], query.format ?? 'markdown', urls))[0],
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: commentPath,
      operationId: `get${form.name}Comment`,
      description:
        'Reads one comment of the space or change request named by the path, with its reactions, repliers and what the caller may do with it. Needs read access to the space; 404 when the comment is not in that space or change request. Changes nothing.',
      tags,
      summary: 'Get a comment',
      params: { ...form.params, ...commentIdParams },
      query: formatQuery,
      responses: {
        200: { description: 'comment', schema: commentSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, query, access, req }) => {
      const { scope, comment } = await loadComment(form, access, params);
      const { body, etag } = await presentTaggedComment(access, scope, comment, query.format ?? 'markdown', urls);
      return taggedAnswer(req, etag, () => body);
    },
  );

  api.op(
    {
      method: 'put',
      path: commentPath,
      operationId: `update${form.name}Comment`,
      description:
        "Changes a comment: `body` (its author only, who must still hold `comment` on the space), `resolved` (anyone with `comment`), and the caller's own reactions (`addedReactions`, `removedReactions`, anyone with `comment`). Each field is checked on its own: a field the caller may not change answers 403 and nothing is written. Resolving or reopening updates the open comment counts.",
      tags,
      summary: "Resolve or reopen a comment, edit its body (author only), add or remove the caller's reactions",
      params: { ...form.params, ...commentIdParams },
      query: formatQuery,
      body: updateCommentBody,
      responses: {
        200: { description: 'comment', schema: commentSchema },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, query, body, caller, access, req }) => {
      const { scope, comment } = await loadComment(form, access, params);
      const target = commentTarget(scope, comment.postedById);
      if (body.body !== undefined) await authorize(access, target, 'edit');
      if (body.resolved !== undefined) await authorize(access, target, 'resolve');
      if (hasReactionChanges(body)) await authorize(access, target, 'react');
      await inTransaction(ds, async (db) => {
        await matchComment(req, db, access, scope, comment.id);
        await updateComment(db, comment, body, caller.userId);
        await applyReactions(db, 'comment', comment.id, caller.userId, body);
      });
      const updated = await findComment(ds.manager, scope, comment.id);
      if (!updated) throw notFound('comment');
      return {
        status: 200,
        body: (await presentComments(access, scope, [updated], query.format ?? 'markdown', urls))[0],
      };
    },
  );

  api.op(
    {
      method: 'delete',
      path: commentPath,
      operationId: `delete${form.name}Comment`,
      description:
        'Deletes a comment with all its replies and their reactions. Needs to be its author (with `comment` on the space) or an admin of the space. 204 also when there was nothing to delete, for a caller who could comment there.',
      tags,
      summary: 'Delete a comment with its replies and reactions (author or space admin)',
      params: { ...form.params, ...commentIdParams },
      responses: {
        204: { description: 'deleted, or there was nothing to delete' },
        412: { description: 'the `If-Match` ETag is not the current one, or the comment is gone (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const scope = await form.load(access, params);
      const comment = await findComment(ds.manager, scope, params.commentId);
      // A missing comment could have been the caller's own had they been able to comment.
      if (!comment) {
        await authorize(access, { kind: 'space', space: scope.space }, 'comment');
        requireMatch(req, null);
      } else {
        await authorize(access, commentTarget(scope, comment.postedById), 'delete');
        await inTransaction(ds, async (db) => {
          await matchComment(req, db, access, scope, comment.id);
          await deleteComment(db, comment.id);
        });
      }
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${commentPath}/replies`,
      operationId: `create${form.name}CommentReply`,
      description:
        "Posts a reply in the thread of a comment of the space or change request named by the path. Needs `comment` on the space. Adds one reply and raises the comment's reply count; answers 200 with the reply.",
      tags,
      summary: 'Reply to a comment',
      params: { ...form.params, ...commentIdParams },
      query: formatQuery,
      body: createReplyBody,
      responses: { 200: { description: 'the new reply', schema: commentReplySchema } },
    },
    async ({ params, query, body, caller, access }) => {
      const { scope, comment } = await loadComment(form, access, params);
      await authorize(access, commentTarget(scope, comment.postedById), 'reply');
      const reply = await inTransaction(ds, (db) => createReply(db, comment.id, body.body.markdown, caller.userId));
      return {
        status: 200,
        body: (await presentReplies(access, scope, comment, [reply], query.format ?? 'markdown', urls))[0],
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: `${commentPath}/replies`,
      operationId: `list${form.name}CommentReplies`,
      description:
        'Lists the replies of a comment of the space or change request named by the path, oldest first, paginated, each with what the caller may do with it. Needs read access to the space; 404 when the comment is not there. Changes nothing.',
      tags,
      // GitBook's operation beyond the spec's tables, which list the change request form only
      extension: !isChangeRequest,
      summary: 'List the replies of a comment, oldest first',
      params: { ...form.params, ...commentIdParams },
      query: listRepliesQuery,
      responses: { 200: { description: 'replies', schema: listSchema(commentReplySchema) } },
    },
    async ({ params, query, access }) => {
      const { scope, comment } = await loadComment(form, access, params);
      const page = await paginate(
        repliesQuery(ds.manager, comment.id),
        [
          { column: 'r.postedAt', direction: 'ASC', value: (r) => r.postedAt },
          { column: 'r.id', direction: 'ASC', value: (r) => r.id },
        ],
        { limit: query.limit, page: query.page, scope: `comment-replies:${comment.id}` },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(
          page,
          await presentReplies(access, scope, comment, page.items, query.format ?? 'markdown', urls),
        ),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: replyPath,
      operationId: `get${form.name}CommentReply`,
      description:
        'Reads one reply of a comment, with its reactions and what the caller may do with it. Needs read access to the space; 404 when the comment or the reply is not there. Changes nothing.',
      tags,
      summary: 'Get a reply',
      params: { ...form.params, ...replyIdParams },
      query: formatQuery,
      responses: { 200: { description: 'reply', schema: commentReplySchema } },
    },
    async ({ params, query, access }) => {
      const { scope, comment, reply } = await loadReply(form, access, params);
      if (!reply) throw notFound('comment reply');
      return {
        status: 200,
        body: (await presentReplies(access, scope, comment, [reply], query.format ?? 'markdown', urls))[0],
      };
    },
  );

  api.op(
    {
      method: 'put',
      path: replyPath,
      operationId: `update${form.name}CommentReply`,
      description:
        "Changes a reply: `body` (its author only, while they hold `comment` on the space) and the caller's own reactions (anyone with `comment`); on a change request, `resolved` also resolves or reopens the parent comment. A field the caller may not change answers 403 and nothing is written.",
      tags,
      summary: isChangeRequest
        ? "Edit a reply's body (author only), add or remove the caller's reactions, resolve or reopen the thread"
        : "Edit a reply's body (author only), add or remove the caller's reactions",
      params: { ...form.params, ...replyIdParams },
      query: formatQuery,
      body: replyUpdateSchema,
      responses: { 200: { description: 'reply', schema: commentReplySchema } },
    },
    async ({ params, query, body, caller, access }) => {
      const { scope, comment, reply } = await loadReply(form, access, params);
      if (!reply) throw notFound('comment reply');
      const { resolved } = body;
      const target = commentTarget(scope, reply.postedById);
      if (body.body !== undefined) await authorize(access, target, 'edit');
      if (resolved !== undefined) await authorize(access, commentTarget(scope, comment.postedById), 'resolve');
      if (hasReactionChanges(body)) await authorize(access, target, 'react');
      await inTransaction(ds, async (db) => {
        // the comment before the reply: the lock order every thread write follows
        if (resolved !== undefined) await updateComment(db, comment, { resolved }, caller.userId);
        if (body.body !== undefined) await editReply(db, reply, body.body.markdown);
        await applyReactions(db, 'reply', reply.id, caller.userId, body);
      });
      const updated = await findReply(ds.manager, comment.id, reply.id);
      if (!updated) throw notFound('comment reply');
      return {
        status: 200,
        body: (await presentReplies(access, scope, comment, [updated], query.format ?? 'markdown', urls))[0],
      };
    },
  );

  api.op(
    {
      method: 'delete',
      path: replyPath,
      operationId: `delete${form.name}CommentReply`,
      description:
        "Deletes a reply with its reactions and lowers the comment's reply count. Needs to be its author (with `comment` on the space) or an admin of the space. 204 also when there was nothing to delete, for a caller who could comment there.",
      tags,
      summary: 'Delete a reply with its reactions (author or space admin)',
      params: { ...form.params, ...replyIdParams },
      responses: { 204: { description: 'deleted, or there was nothing to delete' } },
    },
    async ({ params, access }) => {
      const scope = await form.load(access, params);
      const comment = await findComment(ds.manager, scope, params.commentId);
      const reply = comment ? await findReply(ds.manager, comment.id, params.commentReplyId) : null;
      // as for comments: nothing to delete is a 204 for whoever could have written it
      if (!comment || !reply) await authorize(access, { kind: 'space', space: scope.space }, 'comment');
      else {
        await authorize(access, commentTarget(scope, reply.postedById), 'delete');
        await inTransaction(ds, (db) => deleteReply(db, comment.id, reply.id));
      }
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: `${form.scopePath}/commenters`,
      operationId: `list${form.name}Commenters`,
      description:
        'Lists the organization members who posted a comment or a reply on the space (its own threads, not those of its change requests) or on the change request named by the path, by the date they joined the organization, paginated. Needs read access to the space. Changes nothing.',
      tags,
      extension: !isChangeRequest,
      summary: 'List the members who posted a comment or a reply there',
      params: form.params,
      query: listCommentersQuery,
      responses: { 200: { description: 'members', schema: listSchema(memberSchema) } },
    },
    async ({ params, query, access }) => {
      const scope = await form.load(access, params);
      const { space } = scope;
      const page = await paginate(
        commentersQuery(ds.manager, scope),
        [
          { column: 'm.joinedAt', direction: 'ASC', value: (m: Member) => m.joinedAt },
          { column: 'm.userId', direction: 'ASC', value: (m: Member) => m.userId },
        ],
        { limit: query.limit, page: query.page, scope: `commenters:${space.id}:${scope.changeRequest?.id ?? ''}` },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(page, await presentMembers(ds.manager, space.organizationId, page.items, urls)),
      };
    },
  );
}
