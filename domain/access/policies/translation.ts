import { atLeast } from '../roles';
import { spaceRole } from '../roles-of';
import { definePolicy } from './policy';

export const translationPolicy = definePolicy('translation', async (ctx, target) => {
  // Seen by whoever sees its source space; managed (and run) by the source space's admins.
  const role = await spaceRole(ctx, target.space);
  return { view: atLeast(role, 'read'), edit: atLeast(role, 'admin') };
});
