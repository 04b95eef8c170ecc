import { atLeast } from '../roles';
import { collectionRole } from '../roles-of';
import { definePolicy } from './policy';

export const collectionPolicy = definePolicy('collection', async (ctx, target) => {
  const role = await collectionRole(ctx, target.collection);
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
});
