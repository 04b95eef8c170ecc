/**
 * The refresh of URL-sourced specs, run by the `refresh-openapi-specs` Schedule: each such spec
 * without a run in progress gets a new openapi-process run (an unchanged document adds no version).
 */

import type { Logger } from 'pino';
import { type DataSource, IsNull, MoreThan, Not } from 'typeorm';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { inTransaction } from '../db';
import { isJobActive, lockJobRow, requestJob } from '../processes/job-kind';
import { dispatchJob } from '../processes/jobs';
import type { TemporalGateway } from '../processes/temporal';
import { openapiProcessJob } from './process-job';

const BATCH = 100;

/** Asks for and starts the refreshes; returns how many were asked for. `organizationId` narrows it (tests). */
export async function refreshUrlSpecs(
  deps: { ds: DataSource; temporal: TemporalGateway; logger: Logger },
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
      const ticket = await inTransaction(deps.ds, async (db) => {
        const spec = await lockJobRow(db, openapiProcessJob, id);
        if (!spec?.sourceUrl || isJobActive(spec.process)) return null;
        return requestJob(db, openapiProcessJob, spec, options.now);
      });
      if (!ticket) continue;
      await dispatchJob(deps.temporal, deps.ds.manager, ticket, deps.logger);
      requested++;
    }
    if (batch.length < BATCH) return requested;
    after = batch[batch.length - 1].id;
  }
}
