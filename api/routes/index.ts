/** Every route area, in one place. */
import type { ApiBuilder } from '../operation';
import { collectionRoutes } from './collections/router';
import { grantRoutes } from './grants/router';
import { memberRoutes } from './members/router';
import { organizationRoutes } from './orgs/router';
import { spaceRoutes } from './spaces/router';
import { ssoRoutes } from './sso/router';
import { teamRoutes } from './teams/router';
import { userRoutes } from './user/router';

export function registerRoutes(api: ApiBuilder): void {
  userRoutes(api);
  organizationRoutes(api);
  collectionRoutes(api);
  spaceRoutes(api);
  memberRoutes(api);
  teamRoutes(api);
  ssoRoutes(api);
  grantRoutes(api);
}
