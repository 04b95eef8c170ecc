/** Every route area, in one place. */
import type { ApiBuilder } from '../operation';
import { organizationRoutes } from './orgs/router';
import { userRoutes } from './user/router';

export function registerRoutes(api: ApiBuilder): void {
  userRoutes(api);
  organizationRoutes(api);
}
