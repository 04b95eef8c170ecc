/** List queries of the OpenAPI area, for keyset pagination. */

import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import type { Db } from '../../platform/db/transactions';

export function specsOfOrganizationQuery(db: Db, organizationId: string) {
  return db.createQueryBuilder(OpenAPISpec, 's').where('s.organizationId = :organizationId', { organizationId });
}

export function versionsOfSpecQuery(db: Db, specId: string) {
  return db.createQueryBuilder(OpenAPISpecVersion, 'v').where('v.specId = :specId', { specId });
}
