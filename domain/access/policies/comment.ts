import { atLeast } from '../roles';
import { spaceRole } from '../roles-of';
import { definePolicy } from './policy';

export const commentPolicy = definePolicy('comment', async (ctx, target) => {
  // Words belong to their author: only they rewrite them (while they may still comment); a space
  // admin may delete anyone's comment but not edit it. Discussing (reply, resolve, react) needs `comment`.
  const role = await spaceRole(ctx, target.space);
  const discuss = atLeast(role, 'comment');
  const own = discuss && target.authorId === ctx.userId;
  return {
    view: atLeast(role, 'read'),
    edit: own,
    reply: discuss,
    delete: own || atLeast(role, 'admin'),
    resolve: discuss,
    react: discuss,
  };
});
