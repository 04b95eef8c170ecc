import { atLeast } from '../roles';
import { spaceRole } from '../roles-of';
import { definePolicy } from './policy';

export const spacePolicy = definePolicy('space', async (ctx, target) => {
  const role = await spaceRole(ctx, target.space);
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: atLeast(role, 'edit'),
    triggerGitSync: atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
});
