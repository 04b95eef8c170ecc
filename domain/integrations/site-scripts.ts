/**
 * The published site's `scripts` (GitBook's SiteIntegrationScript): one for each integration with the
 * `site:script:inject` scope whose active installation covers the site (installation-queries.ts).
 * The script is the integration's published one at its public endpoint; `cookies` says whether it may
 * set cookies (`site:script:cookies`). Pending installations (a required configuration missing) inject nothing.
 */

import type { Site } from '../../entities/Site';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import { installationsCoveringSite } from './installation-queries';
import { integrationUrls } from './wire';

export interface SiteScript {
  script: string;
  contentSecurityPolicy?: string;
  cookies: boolean;
}

export async function siteScripts(
  db: Db,
  site: Site,
  config: Pick<Config, 'publicBaseUrl' | 'appBaseUrl' | 'publishedBaseUrl'>,
): Promise<SiteScript[]> {
  const covering = await installationsCoveringSite(db, site);
  return covering
    .filter(
      ({ integration, installation, siteInstallation }) =>
        integration.scopes.includes('site:script:inject') &&
        installation.status === 'active' &&
        (siteInstallation?.status ?? 'active') === 'active',
    )
    .map(({ integration }) => ({
      script: integrationUrls(config, integration).publicEndpoint,
      ...(integration.contentSecurityPolicy ? { contentSecurityPolicy: integration.contentSecurityPolicy } : {}),
      cookies: integration.scopes.includes('site:script:cookies'),
    }));
}
