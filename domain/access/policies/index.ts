/** Every resource kind's policy, registered with the one authorization function: a kind without one does not compile. */

import type { Target } from '../targets';
import { collectionPolicy } from './collection';
import { commentPolicy } from './comment';
import { integrationPolicy } from './integration';
import { integrationInstallationPolicy } from './integration-installation';
import { openapiSpecPolicy } from './openapi-spec';
import { organizationPolicy } from './organization';
import type { Policy } from './policy';
import { publishedSitePolicy } from './published-site';
import { sitePolicy } from './site';
import { spacePolicy } from './space';
import { teamPolicy } from './team';
import { translationPolicy } from './translation';

export const POLICIES: { [K in Target['kind']]: Policy<K> } = {
  organization: organizationPolicy,
  collection: collectionPolicy,
  space: spacePolicy,
  team: teamPolicy,
  comment: commentPolicy,
  translation: translationPolicy,
  openapiSpec: openapiSpecPolicy,
  site: sitePolicy,
  publishedSite: publishedSitePolicy,
  integration: integrationPolicy,
  integrationInstallation: integrationInstallationPolicy,
};
