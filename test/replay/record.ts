/**
 * Re-records the workflow histories replayed by replay.test.ts: `npm run record-histories`
 * (needs the servers from scripts/test.sh; writes test/replay/histories/<workflow>/<release>-<case>.json).
 * Histories are append-only: a new release adds files, it never rewrites old ones.
 */
import 'reflect-metadata';
import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { loadConfig } from '../../domain/config';
import { inTransaction } from '../../domain/db';
import { ensureSpacePurge } from '../../domain/processes/space-purge';
import { TemporalGateway } from '../../domain/processes/temporal';
import { restoreSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { newId } from '../../domain/ids';
import { createDataSource } from '../../entities/data-source';
import { Space } from '../../entities/Space';
import { spacePurgeWorkflowId } from '../../workflows/ids';
import { createOrg } from '../factories';
import { privateTaskQueue, startWorker } from '../support/temporal';

const RELEASE = process.argv[2] ?? 'v1';
const OUT = path.join(__dirname, '..', '..', '..', 'test', 'replay', 'histories', 'space-purge');

async function main(): Promise<void> {
  const config = privateTaskQueue({ ...loadConfig(), spaceRetentionSeconds: 2 });
  const ds = await createDataSource(config).initialize();
  const temporal = new TemporalGateway(config);
  const worker = await startWorker(ds, config);
  const { org } = await createOrg(ds);
  const now = new Date();
  const newSpace = async () => {
    const space = ds.manager.create(Space, { id: newId(), organizationId: org.id, parentId: null, title: 'Recorded', emoji: null, visibility: 'private', editMode: 'live', language: 'en', defaultLevel: null, revisionId: null, position: 1, createdAt: now, updatedAt: now, deletedAt: null, purgeStartedAt: null });
    await ds.manager.insert(Space, space);
    await inTransaction(ds, (db) => softDeleteSpace(db, space));
    await ensureSpacePurge(temporal, ds, space);
    return space;
  };
  const client = await temporal.getClient();
  const record = async (space: Space, name: string) => {
    const handle = client.workflow.getHandle(spacePurgeWorkflowId(space.id));
    await handle.result();
    fs.mkdirSync(OUT, { recursive: true });
    const file = path.join(OUT, `${RELEASE}-${name}.json`);
    // The CLI's JSON export is the format historyFromJSON reads back.
    const json = execFileSync('temporal', ['workflow', 'show', '--address', config.temporal.address, '--namespace', config.temporal.namespace, '--workflow-id', handle.workflowId, '--output', 'json']);
    fs.writeFileSync(file, json);
    process.stdout.write(`recorded ${file}\n`);
  };

  await record(await newSpace(), 'purged');
  const restored = await newSpace();
  await inTransaction(ds, (db) => restoreSpace(db, restored, config.spaceRetentionSeconds));
  await client.workflow.getHandle(spacePurgeWorkflowId(restored.id)).cancel();
  await record(restored, 'cancelled');

  await worker.stop();
  await temporal.close();
  await ds.destroy();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
