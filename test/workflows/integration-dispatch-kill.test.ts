/**
 * An event's delivery survives its worker: the tunnel answers the first attempt 503, the worker is
 * killed (`kill -9`) while the workflow waits out its back-off, and a new worker delivers the event
 * exactly once. The worker runs as a child process from `dist/` (built by `npm test`) on a private
 * task queue, without Schedules; the tunnel is a local server on loopback.
 */

import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { loadConfig } from '../../platform/config';
import { createOrg, unique } from '../factories';
import { newSpace } from '../support/api';
import { devMode, publishAndInstall, Tunnel } from '../support/integration-tunnel';
import { startServer, TestServer } from '../support/server';
import { WorkerProcesses } from '../support/worker-process';

const BACKOFF_MS = 3000;

let server: TestServer;
let tunnel: Tunnel;
let workers: WorkerProcesses;

beforeAll(async () => {
  tunnel = await new Tunnel().start();
  server = await startServer({ temporal: { ...loadConfig().temporal, taskQueue: unique('test-dispatch-') } });
  workers = new WorkerProcesses({
    MYSQL_DATABASE: server.config.mysql.database,
    TEMPORAL_TASK_QUEUE: server.config.temporal.taskQueue,
    FETCH_ALLOW_LOOPBACK: 'true',
    // the back-off with jitter lasts between half and all of this: time enough to kill the worker in it
    INTEGRATION_DISPATCH_BACKOFF_MS: String(BACKOFF_MS),
    INTEGRATION_DISPATCH_MAX_BACKOFF_MS: String(BACKOFF_MS),
  });
}, 60000);

afterAll(async () => {
  workers?.killAll();
  await tunnel?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('kill -9 of the worker during a back-off, then a new worker: the event is delivered exactly once', async () => {
  const { org, admin } = await createOrg(server.ds);
  const { name } = await publishAndInstall(server, admin, org.id);
  const space = await newSpace(server, admin, org.id);
  await devMode(server, admin, name, tunnel.url);
  tunnel.statuses = [503];

  const first = workers.start();
  await server
    .as(admin.token)
    .post(`/v1/spaces/${space.id}/content/pages`)
    .send({ title: 'Page', markdown: 'Text.' })
    .expect(201);
  const [{ id }] = await server.ds.manager.query(
    'SELECT e.id FROM integration_events e JOIN integrations i ON i.id = e.integrationId WHERE i.name = ? AND e.type = ?',
    [name, 'space_content_updated'],
  );
  const row = () => server.ds.manager.findOneByOrFail(IntegrationEvent, { id });
  for (const start = Date.now(); (await row()).dispatch.progressDone < 1; await sleep(20)) {
    if (Date.now() - start > 60000) throw new Error('the first attempt was not recorded');
  }
  // the first attempt is recorded: the workflow now waits out its back-off
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  await sleep(BACKOFF_MS + 500);
  expect(await row()).toMatchObject({ status: 'pending', dispatch: { finishedAt: null, progressDone: 1 } });
  expect(tunnel.received).toHaveLength(1);

  workers.start();
  for (const start = Date.now(); (await row()).status === 'pending'; await sleep(50)) {
    if (Date.now() - start > 60000) throw new Error('the event was not delivered after the restart');
  }
  const event = await row();
  expect(event.status).toBe('success');
  // two requests reached the tunnel: the 503 and one delivery, never a second one
  expect(tunnel.received.map((d) => d.event.eventId)).toEqual([id, id]);
  expect(event.trace.map((l) => l.message.replace(/ in \d+ ms.*$/, ''))).toEqual([
    `attempt 1 of 4: POST ${tunnel.url}/v1 answered HTTP 503`,
    `attempt 2 of 4: POST ${tunnel.url}/v1 answered HTTP 200`,
  ]);
  await sleep(1000);
  expect(tunnel.received).toHaveLength(2);
}, 150000);
