/**
 * Integrations: publishing and the catalogue, installations on organizations, spaces and sites,
 * development mode, and the events sent to integrations (one file per group of operations).
 */
import type { ApiBuilder } from '../../operation';
import { catalogueRoutes } from './catalogue';
import { devModeRoutes } from './dev';
import { eventRoutes } from './events';
import { installationRoutes } from './installations';
import { installationTokenRoutes } from './tokens';

export function integrationRoutes(api: ApiBuilder): void {
  catalogueRoutes(api);
  installationRoutes(api);
  eventRoutes(api);
  devModeRoutes(api);
  installationTokenRoutes(api);
}
