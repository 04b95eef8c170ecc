import { definePolicy } from './policy';

/**
 * Public and unlisted integrations are seen by every caller, private ones by the owner organization's
 * members only; the owner's admins administer it (publish again, unpublish, read its events and
 * installations). A tombstone (unpublished) is seen by no one.
 */
export const integrationPolicy = definePolicy('integration', async (ctx, { integration }) => {
  if (integration.deletedAt) return { view: false, admin: false, listInstallations: false };
  const m = await ctx.membership(integration.ownerOrganizationId);
  const admin = m?.role === 'admin';
  return { view: integration.visibility !== 'private' || !!m, admin, listInstallations: admin };
});
