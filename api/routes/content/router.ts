/** Space content and change request content: each operation mounted under both prefixes (see target.ts). */
import type { ApiBuilder } from '../../operation';
import { contentFileRoutes } from './files';
import { contentPageRoutes } from './pages';
import { contentReadRoutes } from './read';

export function contentRoutes(api: ApiBuilder): void {
  contentReadRoutes(api);
  contentPageRoutes(api);
  contentFileRoutes(api);
}
