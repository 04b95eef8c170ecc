import { atLeast } from '../roles';
import { definePolicy } from './policy';
import { spaceRole } from '../roles-of';

export const translationPolicy = definePolicy('translation', async (ctx, target) => {
  // Seen by whoever sees its source space; managed (and run) by the source space's admins.
  const role = await spaceRole(ctx, target.space);
  return { view: atLeast(role, 'read'), edit: atLeast(role, 'admin') };
});
