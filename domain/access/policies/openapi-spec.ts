import { atLeast } from '../roles';
import { definePolicy } from './policy';

export const openapiSpecPolicy = definePolicy('openapiSpec', async (ctx, target) => {
  // An organization's specs are seen by its full members and edited by those who may create them.
  const m = await ctx.membership(target.spec.organizationId);
  return { view: !!m && m.role !== null, edit: atLeast(m?.role, 'create') };
});
