/** Every resource kind's policy, registered with the one authorization function: a kind without one does not compile. */
import { organizationPolicy } from './organization';
import { collectionPolicy } from './collection';
import { spacePolicy } from './space';
import { teamPolicy } from './team';
import { commentPolicy } from './comment';
import { translationPolicy } from './translation';
import { openapiSpecPolicy } from './openapi-spec';
import { sitePolicy } from './site';
import { publishedSitePolicy } from './published-site';
import { integrationPolicy } from './integration';
import { integrationInstallationPolicy } from './integration-installation';
import type { Policy } from './policy';
import type { Target } from '../targets';

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
