/** Every route area, in one place. */
import type { ApiBuilder } from '../operation';
import { changeRequestPdfRoutes } from './change-requests/pdf';
import { changeRequestReviewRoutes } from './change-requests/reviews';
import { changeRequestRoutes } from './change-requests/router';
import { collectionRoutes } from './collections/router';
import { commentRoutes } from './comments/router';
import { contentRoutes } from './content/router';
import { grantRoutes } from './grants/router';
import { importRoutes } from './imports/router';
import { integrationRoutes } from './integrations/router';
import { linkRoutes } from './links/router';
import { memberRoutes } from './members/router';
import { openAPISpecRoutes } from './openapi-specs/router';
import { organizationRoutes } from './orgs/router';
import { searchRoutes } from './search/router';
import { siteRoutes } from './sites/router';
import { spaceRoutes } from './spaces/router';
import { ssoRoutes } from './sso/router';
import { systemRoutes } from './system/router';
import { teamRoutes } from './teams/router';
import { templateRoutes } from './templates/router';
import { translationRoutes } from './translations/router';
import { userRoutes } from './user/router';

export function registerRoutes(api: ApiBuilder): void {
  systemRoutes(api);
  userRoutes(api);
  organizationRoutes(api);
  collectionRoutes(api);
  spaceRoutes(api);
  memberRoutes(api);
  teamRoutes(api);
  ssoRoutes(api);
  grantRoutes(api);
  contentRoutes(api);
  templateRoutes(api);
  changeRequestRoutes(api);
  changeRequestPdfRoutes(api);
  changeRequestReviewRoutes(api);
  linkRoutes(api);
  searchRoutes(api);
  commentRoutes(api);
  openAPISpecRoutes(api);
  siteRoutes(api);
  translationRoutes(api);
  importRoutes(api);
  integrationRoutes(api);
}
