/**
 * Starting and cancelling the space-purge workflow. The row change commits first; the start comes
 * after under the deterministic id, and the reconciler repairs a crash in between (DESIGN §5).
 */
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import type { DataSource } from 'typeorm';
import { markPurgeStarted, spacesMissingPurge } from '../spaces/deletion';
import type { Space } from '../../entities/Space';
import { SEARCH_ATTRIBUTES, spacePurgeWorkflowId } from '../../workflows/ids';
import type { SpacePurgeInput } from '../../workflows/space-purge';
import type { TemporalGateway } from './temporal';

const organizationKey = defineSearchAttributeKey(SEARCH_ATTRIBUTES.organization, SearchAttributeType.KEYWORD);
const spaceKey = defineSearchAttributeKey(SEARCH_ATTRIBUTES.space, SearchAttributeType.KEYWORD);

export function workflowSearchAttributes(organizationId: string, spaceId?: string): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: organizationKey, value: organizationId },
    ...(spaceId ? [{ key: spaceKey, value: spaceId }] : []),
  ]);
}

/** Starts (or finds) the purge workflow of a deleted space and records it on the row. */
export async function ensureSpacePurge(temporal: TemporalGateway, ds: DataSource, space: Space): Promise<void> {
  if (!space.deletedAt) return;
  const client = await temporal.getClient();
  const input: SpacePurgeInput = { spaceId: space.id, organizationId: space.organizationId };
  await client.workflow.start('spacePurge', {
    workflowId: spacePurgeWorkflowId(space.id),
    taskQueue: temporal.taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: workflowSearchAttributes(space.organizationId, space.id),
  });
  await markPurgeStarted(ds.manager, space.id, space.deletedAt);
}

/** Cancels a pending purge after a restore; a purge that no longer runs is fine. */
export async function cancelSpacePurge(temporal: TemporalGateway, spaceId: string): Promise<void> {
  const client = await temporal.getClient();
  try {
    await client.workflow.getHandle(spacePurgeWorkflowId(spaceId)).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/**
 * Repairs a crash between a space's deletion commit and its workflow start: every deleted space
 * older than `graceSeconds` without a recorded purge gets its workflow (started idempotently).
 */
export async function reconcileSpacePurges(temporal: TemporalGateway, ds: DataSource, graceSeconds: number): Promise<number> {
  let started = 0;
  for (;;) {
    const missing = await spacesMissingPurge(ds.manager, graceSeconds, 100);
    for (const space of missing) {
      await ensureSpacePurge(temporal, ds, space);
      started++;
    }
    if (missing.length < 100) return started;
  }
}
