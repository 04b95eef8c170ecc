/** The list of an organization's import runs (GitBook's listImportRuns filters), for keyset pagination. */

import { ImportRun } from '../../entities/ImportRun';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import type { ViewableContent } from '../access/authorize';
import { whereSpaceViewable } from '../access/viewable';
import { JOB_FAILURES } from '../jobs/contracts';
import type { ImportRunStatus } from './runs';

/** `active` is GitBook's name for pending and in-progress together. */
export type ImportRunStatusFilter = ImportRunStatus | 'active';

/** SQL over the job columns for each status, as importRunStatus reads them. */
const STATUS_CONDITIONS: Record<ImportRunStatusFilter, string> = {
  active: 'r.processRequestedAt IS NOT NULL AND r.processFinishedAt IS NULL',
  pending: 'r.processRequestedAt IS NOT NULL AND r.processFinishedAt IS NULL AND r.processStartedAt IS NULL',
  'in-progress': 'r.processFinishedAt IS NULL AND r.processStartedAt IS NOT NULL',
  completed: 'r.processFinishedAt IS NOT NULL AND r.processErrorCode IS NULL',
  failed: `r.processFinishedAt IS NOT NULL AND r.processErrorCode IS NOT NULL AND r.processErrorCode <> '${JOB_FAILURES.cancelled}'`,
  cancelled: `r.processErrorCode = '${JOB_FAILURES.cancelled}'`,
};

export interface ImportRunFilters {
  space?: string;
  changeRequest?: string;
  status?: ImportRunStatusFilter;
}

/** The runs of the organization's live spaces that the caller can view, filtered. */
export function importRunsQuery(db: Db, organizationId: string, viewable: ViewableContent, filters: ImportRunFilters) {
  const qb = db
    .createQueryBuilder(ImportRun, 'r')
    .innerJoin(Space, 's', 's.id = r.spaceId AND s.deletedAt IS NULL')
    .where('r.organizationId = :organizationId', { organizationId });
  whereSpaceViewable(qb, 's', viewable);
  if (filters.space) qb.andWhere('r.spaceId = :space', { space: filters.space });
  if (filters.changeRequest)
    qb.andWhere('r.changeRequestId = :changeRequest', { changeRequest: filters.changeRequest });
  if (filters.status) qb.andWhere(`(${STATUS_CONDITIONS[filters.status]})`);
  return qb;
}
