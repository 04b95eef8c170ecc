/**
 * Runs the openapi-process job through each of its paths, for record.ts. The timeout case needs a
 * local server, so record with loopback allowed and a short fetch time:
 * `FETCH_ALLOW_LOOPBACK=true FETCH_TIMEOUT_MS=1000 npm run record-histories -- openapi-process v2`.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { newId } from '../../../domain/ids';
import { jobWorkflowId } from '../../../domain/jobs/contracts';
import { applyJobTicket } from '../../../domain/jobs/job-start';
import { openapiProcessJob } from '../../../domain/openapi-specs/process-job';
import {
  createSpec,
  lockSpecBySlug,
  replaceSpecSource,
  StoredSource,
  storeSourceText,
} from '../../../domain/openapi-specs/specs';
import { inTransaction } from '../../../platform/db/transactions';
import { createBlobStore } from '../../../platform/storage';
import { heldBack } from '../../support/held-back';
import type { Recorder } from './recorder';

const VALID = 'openapi: 3.1.0\ninfo: {title: Recorded, version: "1"}\npaths: {}\n';

export const recordOpenAPIProcess: Recorder = async ({ ds, config, temporal, org, admin }) => {
  if (config.fetch.allowLoopback !== true)
    throw new Error('record openapi-process with FETCH_ALLOW_LOOPBACK=true (its timeout case uses a local server)');
  const logger = pino({ level: 'silent' });
  const blobs = createBlobStore(config);
  const client = await temporal.getClient();
  // /silent never answers; /slow-<case> answers after a moment, time enough to supersede its run
  const fetched = new Map<string, () => void>();
  const local = http.createServer((req, res) => {
    if (!req.url?.startsWith('/slow')) return;
    fetched.get(req.url)?.();
    setTimeout(() => res.end(VALID), 500);
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  const localUrl = (file: string) => `http://127.0.0.1:${(local.address() as AddressInfo).port}/${file}`;

  const source = async (specId: string, s: { url: string } | { text: string }): Promise<StoredSource> =>
    'url' in s ? s : { textKey: await storeSourceText(blobs, specId, s.text) };
  const create = async (slug: string, s: { url: string } | { text: string }) => {
    const id = newId();
    const stored = await source(id, s);
    const ticket = await inTransaction(heldBack(ds), (db) =>
      createSpec(db, { id, organizationId: org.id, slug, source: stored, createdById: admin.user.id }),
    );
    await applyJobTicket(temporal, ds.manager, ticket, logger);
    return id;
  };
  /** A new source without the cancel a request sends: the old run must find its generation moved on. */
  const replaceQuietly = (slug: string, s: { text: string }) =>
    inTransaction(heldBack(ds), async (db) => {
      const spec = (await lockSpecBySlug(db, org.id, slug))!;
      return replaceSpecSource(db, spec, await source(spec.id, s));
    });
  /** Creates the spec from /slow-<slug>.yaml and returns once its run is fetching it. */
  const fetching = async (slug: string) => {
    const arrived = new Promise<void>((resolve) => fetched.set(`/slow-${slug}.yaml`, resolve));
    const id = await create(slug, { url: localUrl(`slow-${slug}.yaml`) });
    await arrived;
    return id;
  };
  const settle = async (specId: string, generation: number) => {
    const workflowId = jobWorkflowId(openapiProcessJob, specId, generation);
    await client.workflow
      .getHandle(workflowId)
      .result()
      .catch(() => undefined);
    return workflowId;
  };

  try {
    const complete = await create('complete', { text: VALID });
    const completed = await settle(complete, 1);
    // the same document again: no new version
    const again = await inTransaction(heldBack(ds), async (db) =>
      replaceSpecSource(db, (await lockSpecBySlug(db, org.id, 'complete'))!, await source(complete, { text: VALID })),
    );
    await applyJobTicket(temporal, ds.manager, again, logger);
    const unchanged = await settle(complete, 2);

    const timeout = await create('fetch-timeout', { url: localUrl('silent.yaml') });
    const fetchError = await create('fetch-error', { url: 'http://10.0.0.1/openapi.yaml' });
    const parseError = await create('parse-error', {
      text: '{"openapi": "3.0.0", "info": {"title": "x"}, "paths": {"/a": {"get": {"responses": 1}}}}',
    });

    // superseded while it fetches: its save finds generation 2 and writes nothing
    const superseded = await fetching('superseded');
    await replaceQuietly('superseded', { text: VALID });

    // superseded with the cancel a request sends, while it fetches (v3: the run awaits its bundling's end)
    const cancelled = await fetching('cancelled');
    await applyJobTicket(temporal, ds.manager, await replaceQuietly('cancelled', { text: VALID }), logger);

    return [
      { name: 'complete', workflowId: completed },
      { name: 'unchanged', workflowId: unchanged },
      { name: 'fetch-timeout', workflowId: await settle(timeout, 1) },
      { name: 'fetch-error', workflowId: await settle(fetchError, 1) },
      { name: 'parse-error', workflowId: await settle(parseError, 1) },
      { name: 'superseded', workflowId: await settle(superseded, 1) },
      { name: 'cancelled', workflowId: await settle(cancelled, 1) },
    ];
  } finally {
    local.closeAllConnections();
    local.close();
  }
};
