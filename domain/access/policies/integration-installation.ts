import { integrationPolicy } from './integration';
import { definePolicy } from './policy';

/**
 * An installation is seen by the admins of the integration's owner organization (the developer's side,
 * as on GitBook, where the integration reads its installations) and by the full members of the
 * organization it is installed in; only that organization's admins change or remove it.
 */
export const integrationInstallationPolicy = definePolicy(
  'integrationInstallation',
  async (ctx, { integration, installation }) => {
    const installer = await ctx.membership(installation.organizationId);
    const developer = (await integrationPolicy(ctx, { kind: 'integration', integration })).admin;
    // a user never mints installation tokens: the integration does, with its own token (integration-scopes.ts)
    return {
      view: developer || (!!installer && installer.role !== null),
      admin: installer?.role === 'admin',
      issueToken: false,
    };
  },
);
