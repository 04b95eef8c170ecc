/**
 * Runs the content-import job through each of its paths, for record.ts. Its documents come from a
 * local website, so record with loopback allowed and a short fetch time:
 * `FETCH_ALLOW_LOOPBACK=true FETCH_TIMEOUT_MS=1000 IMPORT_BATCH_PAGES=5 npm run record-histories -- content-import v4`
 * (several batches, so that the `continued` case continues as new between them).
 */
import http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { contentImportJob } from '../../../domain/imports/import-job';
import { cancelImportRun, requestImport } from '../../../domain/imports/runs';
import { jobWorkflowId } from '../../../domain/jobs/contracts';
import { lockJobRow } from '../../../domain/jobs/job-lifecycle';
import { applyJobTicket } from '../../../domain/jobs/job-start';
import type { ImportSource } from '../../../entities/ImportRun';
import { ImportRun } from '../../../entities/ImportRun';
import { inTransaction } from '../../../platform/db/transactions';
import { insertSpace } from '../../support/content';
import { heldBack } from '../../support/held-back';
import { pngBytes, startWebsite } from '../../support/website';
import { continuedCases, continuingGateway, type Recorder } from './recorder';

export const recordContentImport: Recorder = async ({ ds, config, temporal, org, admin }) => {
  if (config.fetch.allowLoopback !== true)
    throw new Error('record content-import with FETCH_ALLOW_LOOPBACK=true (its documents come from a local website)');
  const logger = pino({ level: 'silent' });
  const client = await temporal.getClient();
  const site = await startWebsite({
    pages: 20,
    files: { '/broken.zip': { type: 'application/zip', body: 'not a zip' } },
  });
  // a markdown page showing 8 images, each answered after 400 ms: its one batch takes seconds
  const gallery = http.createServer((req, res) => {
    if (req.url === '/gallery.md') {
      const images = Array.from({ length: 8 }, (_, i) => `![image ${i}](/img/${i}.png)`).join('\n\n');
      return void res.writeHead(200, { 'Content-Type': 'text/markdown' }).end(`# Gallery\n\n${images}\n`);
    }
    setTimeout(
      () =>
        res
          .writeHead(200, { 'Content-Type': 'image/png' })
          .end(pngBytes(Number(/(\d+)\.png$/.exec(req.url ?? '')?.[1] ?? 0))),
      400,
    );
  });
  await new Promise<void>((resolve) => gallery.listen(0, '127.0.0.1', resolve));

  const bounded = continuingGateway(config);
  const start = async (url: string, source: ImportSource, gateway = temporal) => {
    const space = await insertSpace(ds, org);
    const { ticket } = await inTransaction(heldBack(ds), (db) =>
      requestImport(
        db,
        { space, changeRequest: null, head: { kind: 'space', spaceId: space.id } },
        { url, source },
        admin.user.id,
      ),
    );
    await applyJobTicket(gateway, ds.manager, ticket, logger);
    return ticket.row.id;
  };
  const settle = async (runId: string) => {
    const workflowId = jobWorkflowId(contentImportJob, runId, 1);
    await client.workflow
      .getHandle(workflowId)
      .result()
      .catch(() => undefined);
    return workflowId;
  };

  try {
    const imported = await start(`${site.base}/site/`, 'website');
    const continued = await start(`${site.base}/site/`, 'website', bounded);
    const fetchError = await start('http://10.0.0.1/docs/', 'website');
    const parseError = await start(`${site.base}/broken.zip`, 'zip');
    // cancelled while its batch stores images (v2: the run awaits the batch's end): it commits nothing
    const cancelled = await start(`http://127.0.0.1:${(gallery.address() as AddressInfo).port}/gallery.md`, 'markdown');
    while (!(await ds.manager.findOneByOrFail(ImportRun, { id: cancelled })).process.startedAt)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000));
    const ticket = await inTransaction(heldBack(ds), async (db) =>
      cancelImportRun(db, (await lockJobRow(db, contentImportJob, cancelled))!),
    );
    await applyJobTicket(temporal, ds.manager, ticket, logger);
    // a different import into the same space before the first one's run began, whose cancel is lost: the run
    // finds its generation moved on (SUPERSEDED) and commits nothing
    const space = await insertSpace(ds, org);
    const target = { space, changeRequest: null, head: { kind: 'space' as const, spaceId: space.id } };
    const first = await inTransaction(heldBack(ds), (db) =>
      requestImport(db, target, { url: `${site.base}/site/`, source: 'website' }, admin.user.id),
    );
    await inTransaction(heldBack(ds), (db) =>
      requestImport(db, target, { url: `${site.base}/broken.zip`, source: 'zip' }, admin.user.id),
    );
    await applyJobTicket(temporal, ds.manager, { ...first.ticket, superseded: null }, logger);
    return [
      { name: 'imported', workflowId: await settle(imported) },
      { name: 'fetch-error', workflowId: await settle(fetchError) },
      { name: 'parse-error', workflowId: await settle(parseError) },
      { name: 'cancelled', workflowId: await settle(cancelled) },
      { name: 'superseded', workflowId: await settle(first.ticket.row.id) },
      ...(await continuedCases(
        temporal,
        jobWorkflowId(contentImportJob, continued, 1),
        (
          await ds.manager.findOneByOrFail(ImportRun, { id: continued })
        ).process.runId,
      )),
    ];
  } finally {
    await bounded.close();
    await site.close();
    gallery.closeAllConnections();
    gallery.close();
  }
};
