import { atLeast } from '../roles';
import { siteRole } from '../roles-of';
import { definePolicy } from './policy';

export const sitePolicy = definePolicy('site', async (ctx, target) => {
  // A site belongs to its organization as a whole: its full members see it, with their organization
  // role; only admins change it (settings, structure, publishing, adaptive schema).
  const role = await siteRole(ctx, target.site.organizationId);
  return {
    view: role !== null,
    access: role !== null,
    edit: atLeast(role, 'edit'),
    create: atLeast(role, 'create'),
    admin: role === 'admin',
    installIntegration: role === 'admin',
    viewAdaptiveSchema: role !== null,
    editAdaptiveSchema: role === 'admin',
  };
});
