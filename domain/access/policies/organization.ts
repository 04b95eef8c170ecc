import { atLeast } from '../roles';
import { definePolicy } from './policy';

export const organizationPolicy = definePolicy('organization', async (ctx, target) => {
  const m = await ctx.membership(target.organization.id);
  const isMember = !!m;
  const isUser = !!m && m.role !== null; // a guest is not a full member
  const admin = m?.role === 'admin';
  return {
    view: isMember,
    access: isMember,
    admin,
    ownTeam: admin,
    createContent: atLeast(m?.role, 'create'),
    createOpenAPISpec: atLeast(m?.role, 'create'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: isUser,
    listTeams: isUser,
    listIntegrations: isUser,
    listInstallations: admin,
    installIntegration: admin,
  };
});
