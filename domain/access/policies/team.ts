import { definePolicy } from './policy';

export const teamPolicy = definePolicy('team', async (ctx, target) => {
  const m = await ctx.membership(target.team.organizationId);
  if (!m) return { view: false, admin: false };
  if (m.role === 'admin') return { view: true, admin: true };
  const own = await ctx.teamMembership(target.team.id);
  return { view: m.role !== null || !!own, admin: own?.role === 'owner' };
});
