/**
 * The space-purge job kind: a deletion asks for it, a restore withdraws it (deletion.ts), and the
 * `spacePurge` workflow runs it under `space-purge/<spaceId>/<generation>`.
 */
import { Space } from '../../entities/Space';
import { JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';

export const spacePurgeJob = defineJobKind({
  name: JOB_KIND_NAMES.spacePurge,
  workflow: 'spacePurge',
  entity: Space,
  state: 'purge',
  input: (space: Space) => ({ spaceId: space.id, organizationId: space.organizationId }),
  spaceId: (space: Space) => space.id,
  // the row is the space itself
  askedAbout: [],
  // A deletion after a restore is a new purge; the withdrawn one must never act on it.
  policy: 'supersede',
  // no API of its own: `cli jobs` shows the machinery's status
  publicStatus: jobStatus,
  // its batches heartbeat their tables; the row counts nothing
  progressUnit: null,
  onLostRun: 'request-again',
  // nobody waits on a purge: a database outage of this long delays it
  retryBudgetMs: 3600 * 1000,
  // The job is the removal: everything under the space goes once SPACE_RETENTION_SECONDS passed, and the row
  // with the run's success
  removesRow: true,
  retention: null,
});
