/**
 * `npm run record-histories -- <workflow> <release>` (after `npm run build`, with the servers of
 * `npm start`/`npm test` running and `temporal` on PATH): drives the workflow through each of its
 * cases on a private task queue, with short retention and retries, and writes
 * test/replay/histories/<workflow>/<release>-<case>.json. Histories are append-only: it refuses to
 * overwrite one that exists, so a new release adds files and never rewrites old ones.
 */
import 'reflect-metadata';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { TemporalGateway } from '../../platform/temporal/gateway';
import { createOrg } from '../factories';
import { privateTaskQueue, shortJobRetries, startWorker } from '../support/temporal';
import { RECORDERS } from './recorders';

const HISTORIES = path.join(__dirname, '..', '..', '..', 'test', 'replay', 'histories');

function usage(message: string): never {
  throw new Error(
    `${message}\nusage: npm run record-histories -- <${Object.keys(RECORDERS).join('|')}> <release, e.g. v2>`,
  );
}

async function main(argv: string[]): Promise<void> {
  const [workflow, release] = argv;
  const entry = RECORDERS[workflow ?? ''];
  if (!entry) usage(`unknown workflow "${workflow ?? ''}"`);
  if (!release || !/^v[0-9]+$/.test(release)) usage('the release must be named like v2');
  const files = entry.cases.map((name) => path.join(HISTORIES, workflow, `${release}-${name}.json`));
  const existing = files.filter((f) => fs.existsSync(f));
  if (existing.length)
    throw new Error(
      `refusing to overwrite committed histories:\n  ${existing.join('\n  ')}\nrecord a new release instead`,
    );

  const config = shortJobRetries(privateTaskQueue({ ...loadConfig(), spaceRetentionSeconds: 2 }));
  const ds = await createDataSource(config).initialize();
  const temporal = new TemporalGateway(config);
  const worker = await startWorker(ds, config);
  try {
    const { org, admin } = await createOrg(ds);
    const runs = await entry.recorder({ ds, config, temporal, org, admin });
    fs.mkdirSync(path.join(HISTORIES, workflow), { recursive: true });
    for (const run of runs) {
      const file = path.join(HISTORIES, workflow, `${release}-${run.name}.json`);
      // The CLI's JSON export is the format historyFromJSON reads back.
      const json = execFileSync('temporal', [
        'workflow',
        'show',
        '--address',
        config.temporal.address,
        '--namespace',
        config.temporal.namespace,
        '--workflow-id',
        run.workflowId,
        ...(run.runId ? ['--run-id', run.runId] : []),
        '--output',
        'json',
      ]);
      fs.writeFileSync(file, json, { flag: 'wx' });
      process.stdout.write(`recorded ${path.relative(process.cwd(), file)}\n`);
    }
  } finally {
    await worker.stop();
    await temporal.close();
    await ds.destroy();
  }
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
