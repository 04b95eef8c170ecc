/**
 * The refresh of URL-sourced specs, run by the `refresh-openapi-specs` Schedule: each such spec
 * without a run in progress gets a new openapi-process run (an unchanged document adds no version).
 */

import { IsNull, MoreThan, Not } from 'typeorm';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { inTransaction, type WorkSource } from '../../platform/db/transactions';
import { isJobActive } from '../jobs/job-kind';
import { lockJobRow, requestJob } from '../jobs/job-lifecycle';
import { openapiProcessJob } from './process-job';

const BATCH = 100;

/**
 * Asks for the refreshes, whose runs start as each commits (the Schedule's activity); returns
 * how many were asked for. `organizationId` narrows it (tests).
 */
export async function refreshUrlSpecs(
  deps: WorkSource,
  options: { organizationId?: string; now: Date },
): Promise<number> {
  let requested = 0;
  for (let after = ''; ; ) {
    const batch = await deps.ds.manager.find(OpenAPISpec, {
      where: {
        sourceUrl: Not(IsNull()),
        id: MoreThan(after),
        ...(options.organizationId ? { organizationId: options.organizationId } : {}),
      },
      select: { id: true },
      order: { id: 'ASC' },
      take: BATCH,
    });
    for (const { id } of batch) {
      // the run's start follows the commit (after-commit.ts)
      const asked = await inTransaction(deps, async (db) => {
        const spec = await lockJobRow(db, openapiProcessJob, id);
        if (!spec?.sourceUrl || isJobActive(spec.process)) return false;
        await requestJob(db, openapiProcessJob, spec, options.now);
        return true;
      });
      if (asked) requested++;
    }
    if (batch.length < BATCH) return requested;
    after = batch[batch.length - 1].id;
  }
}
