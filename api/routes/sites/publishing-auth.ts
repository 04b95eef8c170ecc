/**
 * A site's visitor token signing key (GitBook's `…/publishing/auth` and `/regenerate`, beyond our spec).
 * The key signs visitor tokens, so only the site's admins read it; it is made on first read.
 */
import { publishingAuthOf, regeneratePublishingAuth } from '../../../domain/sites/publishing-auth';
import type { ApiBuilder } from '../../operation';
import { presentSitePublishingAuth, sitePublishingAuthSchema } from '../../presenters/site-publishing-auth';
import { writeSite } from './access';
import { siteParams } from './schema';

export function publishingAuthRoutes(api: ApiBuilder): void {
  const tags = ['sites'];
  const base = '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth';

  api.op(
    {
      method: 'get',
      path: base,
      operationId: 'getSitePublishingAuthById',
      description:
        "Returns the key the site's owner signs visitor tokens with, creating it on the first read. Needs `admin` on the site (the organization's admins); only a `visitor-auth` site or one with adaptive content enabled has one (else 400).",
      tags,
      extension: true,
      summary:
        "The site's visitor token signing key (site admins; 400 unless the site is visitor-auth or has adaptive content)",
      params: siteParams,
      responses: { 200: { description: 'signing key', schema: sitePublishingAuthSchema } },
    },
    async ({ params, caller }) => {
      const auth = await writeSite(api.deps, caller, params, ({ db, site }) => publishingAuthOf(db, site));
      return { status: 200, body: presentSitePublishingAuth(auth) };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${base}/regenerate`,
      operationId: 'regenerateSitePublishingAuthById',
      secretInAnswer: true,
      description:
        "Replaces the site's visitor token signing key with a new one: tokens signed with the old key are refused from the commit on. Needs `admin` on the site (the organization's admins).",
      tags,
      extension: true,
      summary: 'Replace the signing key: tokens signed with the old key are refused at once (site admins)',
      params: siteParams,
      responses: { 200: { description: 'the new signing key', schema: sitePublishingAuthSchema } },
    },
    async ({ params, caller }) => {
      const auth = await writeSite(api.deps, caller, params, ({ db, site }) => regeneratePublishingAuth(db, site));
      return { status: 200, body: presentSitePublishingAuth(auth) };
    },
  );
}
