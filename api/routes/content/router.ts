/** Space content and change request content, each operation mounted under both prefixes (see target.ts); reads also for a revision by id. */
import type { ApiBuilder } from '../../operation';
import { contentFileRoutes } from './files';
import { contentPageRoutes } from './pages';
import { contentReadRoutes } from './read';
import { revisionRoutes } from './revisions';

export function contentRoutes(api: ApiBuilder): void {
  contentReadRoutes(api);
  contentPageRoutes(api);
  contentFileRoutes(api);
  revisionRoutes(api);
}
