/**
 * The integration-dispatch workflow on real servers, with development tunnels on loopback: the full
 * story (publish, install, install on a space, dev mode on, edit: the tunnel receives a signed
 * space_content_updated and the event reads success with its trace), retries on 5xx, 429 and dropped
 * connections with one delivery, a 406 failing at once, attempts running out, `all=false` filtering,
 * a tunnel calling the API back with the environment's token, and a refused address by default (retried,
 * its trace naming no address).
 */
import http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { integrationDispatchJob } from '../../domain/integrations/dispatch-job';
import { recordIntegrationEvent } from '../../domain/integrations/events';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { startMissingRuns } from '../../domain/jobs/kinds';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { Config, loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { inTransaction } from '../../platform/db/transactions';
import { Actor, addMember, createOrg, unique } from '../factories';
import { gitbookSchemaErrors } from '../support/answer-validation';
import { Json, newSpace } from '../support/api';
import { heldBack } from '../support/held-back';
import {
  devMode,
  InstalledIntegration,
  install,
  publishAndInstall,
  signatureValid,
  Tunnel,
} from '../support/integration-tunnel';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

/** Short back-offs, so retries take milliseconds. */
function dispatchConfig(base: Config, publicBaseUrl: string, allowLoopback: boolean): Config {
  return privateTaskQueue(
    shortJobRetries({
      ...base,
      publicBaseUrl,
      fetch: { ...base.fetch, allowLoopback },
      integrationDispatch: {
        ...base.integrationDispatch,
        backoffMs: 50,
        maxBackoffMs: 200,
        maxAttempts: 4,
        timeoutMs: 3000,
      },
    }),
  );
}

/** The event once its delivery ended (its job finished, or none was asked for), read from the row. */
async function settled(server: TestServer, eventId: string, timeoutMs = 30000): Promise<IntegrationEvent> {
  for (const start = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
    const event = await server.ds.manager.findOneByOrFail(IntegrationEvent, { id: eventId });
    if (event.status !== 'pending' && (event.dispatch.finishedAt || !event.dispatch.requestedAt)) return event;
    if (Date.now() - start > timeoutMs) throw new Error(`event ${eventId} still ${event.status}`);
  }
}

async function eventsOf(server: TestServer, name: string, type: string): Promise<IntegrationEvent[]> {
  const rows = await server.ds.manager.query(
    'SELECT e.id FROM integration_events e JOIN integrations i ON i.id = e.integrationId WHERE i.name = ? AND e.type = ? ORDER BY e.createdAt, e.id',
    [name, type],
  );
  return Promise.all(
    rows.map((r: { id: string }) => server.ds.manager.findOneByOrFail(IntegrationEvent, { id: r.id })),
  );
}

/** Writes a page into the space through the API: one head move. */
async function editSpace(server: TestServer, actor: Actor, spaceId: string, title = 'Page'): Promise<void> {
  await server
    .as(actor.token)
    .post(`/v1/spaces/${spaceId}/content/pages`)
    .send({ title, markdown: 'Text.' })
    .expect(201);
}

/** The one space_content_updated event of the space (after an edit), settled. */
async function contentEvent(server: TestServer, name: string, spaceId: string): Promise<IntegrationEvent> {
  const events = (await eventsOf(server, name, 'space_content_updated')).filter((e) => e.spaceId === spaceId);
  expect(events).toHaveLength(1);
  return settled(server, events[0].id);
}

describe('with loopback tunnels allowed (the tests configuration)', () => {
  let server: TestServer;
  let worker: TestWorker;
  let api: http.Server;
  const tunnels: Tunnel[] = [];
  const tunnel = async () => {
    const t = await new Tunnel().start();
    tunnels.push(t);
    return t;
  };

  beforeAll(async () => {
    // the API listens, so a tunnel can call it back at environment.apiEndpoint
    api = http.createServer((req, res) => server.app(req, res));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    server = await startServer(
      dispatchConfig(loadConfig(), `http://127.0.0.1:${(api.address() as AddressInfo).port}`, true),
    );
    worker = await startWorker(server.ds, server.config);
  }, 60000);

  afterAll(async () => {
    await worker?.stop();
    for (const t of tunnels) await t.close();
    await new Promise((resolve) => api?.close(resolve));
    await server?.close();
  });

  async function setUp(): Promise<{
    owner: Actor;
    orgId: string;
    integration: InstalledIntegration;
    space: Json;
    tunnel: Tunnel;
  }> {
    const { org, admin } = await createOrg(server.ds);
    const integration = await publishAndInstall(server, admin, org.id);
    const space = await newSpace(server, admin, org.id);
    const t = await tunnel();
    await devMode(server, admin, integration.name, t.url);
    return { owner: admin, orgId: org.id, integration, space, tunnel: t };
  }

  it('the full story: publish, install, install on a space, dev mode, edit: a signed space_content_updated, success with its trace', async () => {
    const { org, admin } = await createOrg(server.ds);
    const name = unique('dispatch-');
    await server
      .as(admin.token)
      .post(`/v1/integrations/${name}`)
      .send({
        organization: org.id,
        title: 'Full story',
        description: 'Receives events',
        script: 'export default {};',
        scopes: ['space:content:read'],
      })
      .expect(200);
    const installationId = (
      await server
        .as(admin.token)
        .post(`/v1/integrations/${name}/installations`)
        .send({ organization: org.id })
        .expect(201)
    ).body.id;
    const space = await newSpace(server, admin, org.id);
    await server
      .as(admin.token)
      .post(`/v1/integrations/${name}/installations/${installationId}/spaces`)
      .send({ space: space.id })
      .expect(201);
    // written before dev mode: failed at once, no workflow
    const [setup] = await eventsOf(server, name, 'installation_setup');
    expect(setup).toMatchObject({ status: 'failed', endpointUrl: null, dispatch: { requestedAt: null } });
    expect(setup.trace[0].message).toMatch(/^no endpoint configured/);

    const t = await tunnel();
    await devMode(server, admin, name, t.url);
    await editSpace(server, admin, space.id);
    const event = await contentEvent(server, name, space.id);

    expect(t.received).toHaveLength(1);
    const [dispatch] = t.received;
    expect(dispatch.path).toBe('/v1');
    expect(dispatch.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const installation = await server.ds.manager.findOneByOrFail(IntegrationInstallation, { id: installationId });
    expect(signatureValid(dispatch, installation.signingSecret)).toBe(true);
    expect(signatureValid(dispatch, 'another secret')).toBe(false);
    const { revision: revisionId } = (await server.as(admin.token).get(`/v1/spaces/${space.id}`).expect(200)).body;
    expect(dispatch.event).toEqual({
      eventId: event.id,
      type: 'space_content_updated',
      installationId,
      spaceId: space.id,
      revisionId,
      updatedBy: [expect.objectContaining({ object: 'user', id: admin.user.id, displayName: admin.user.displayName })],
    });
    expect(dispatch.environment).toMatchObject({
      integration: { object: 'integration', name, version: 1 },
      installation: { id: installationId, space_selection: 'selected', target: { organization: org.id } },
      spaceInstallation: { integration: name, installation: installationId, space: space.id },
      secrets: {},
      signingSecrets: { integration: expect.any(String), installation: installation.signingSecret },
      apiEndpoint: server.config.publicBaseUrl,
      apiTokens: { integration: expect.any(String), installation: expect.any(String) },
    });
    // GitBook's runtime and SDK read it as their IntegrationEnvironment: optional fields without a value left out
    expect(gitbookSchemaErrors('IntegrationEnvironment', dispatch.environment)).toBe('');

    const detail = (await server.as(admin.token).get(`/v1/integrations/${name}/events/${event.id}`).expect(200)).body;
    expect(detail.event).toMatchObject({
      id: event.id,
      integrationId: event.integrationId,
      installationId,
      status: 'success',
      payload: dispatch.event,
    });
    expect(detail.trace.logs).toEqual([
      {
        level: 'info',
        timestamp: expect.any(String),
        message: expect.stringMatching(new RegExp(`^attempt 1 of 4: POST ${t.url}/v1 answered HTTP 200 in \\d+ ms$`)),
      },
    ]);
    // the run is Temporal's integration-dispatch/<eventId>, found by its ResourceId
    const client = await server.temporal.getClient();
    const handle = client.workflow.getHandle(jobWorkflowId(integrationDispatchJob, event.id, 1));
    expect(await handle.result()).toEqual({ state: 'done', result: { attempts: 1 } });
    const description = await handle.describe();
    expect(description.workflowId).toBe(`integration-dispatch/${event.id}`);
    expect(description.searchAttributes).toMatchObject({
      OrganizationId: [org.id],
      SpaceId: [space.id],
      ResourceId: [event.id],
    });
    expect(description.status.name).toBe('COMPLETED');
  });

  it('a tunnel failing twice (503, 429) then answering 200: delivered once, success, three attempts in the trace', async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    t.statuses = [503, 429];
    await editSpace(server, owner, space.id);
    const event = await contentEvent(server, integration.name, space.id);
    expect(event.status).toBe('success');
    expect(t.received.map((d) => d.event.eventId)).toEqual([event.id, event.id, event.id]);
    expect(event.trace.map((l) => [l.level, l.message.replace(/in \d+ ms.*$/, '')])).toEqual([
      ['warn', `attempt 1 of 4: POST ${t.url}/v1 answered HTTP 503 `],
      ['warn', `attempt 2 of 4: POST ${t.url}/v1 answered HTTP 429 `],
      ['info', `attempt 3 of 4: POST ${t.url}/v1 answered HTTP 200 `],
    ]);
    expect(event.trace[0].message).toMatch(/; retrying in \d+ ms$/);
    // progress counts attempts, with no total to fill
    expect(event.dispatch).toMatchObject({ progressDone: 3, progressTotal: null, errorCode: null });
  });

  it("a 429's Retry-After lengthens the back-off, up to the longest configured (200 ms here)", async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    t.statuses = [429];
    t.errorHeaders = { 'retry-after': '1' };
    await editSpace(server, owner, space.id);
    const event = await contentEvent(server, integration.name, space.id);
    expect(event.status).toBe('success');
    // without it the first retry waits 25..50 ms (backoffMs 50, jittered)
    expect(event.trace[0].message).toMatch(/answered HTTP 429 in \d+ ms; retrying in 200 ms$/);
  });

  it('a dropped connection is retried like a 5xx', async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    t.statuses = [0];
    await editSpace(server, owner, space.id);
    const event = await contentEvent(server, integration.name, space.id);
    expect(event.status).toBe('success');
    expect(event.trace).toHaveLength(2);
    expect(event.trace[0]).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/^attempt 1 of 4: POST \S+ failed: .*; retrying in \d+ ms$/),
    });
  });

  it('a tunnel answering 406: failed at once, no retry', async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    t.statuses = [406];
    await editSpace(server, owner, space.id);
    const event = await contentEvent(server, integration.name, space.id);
    expect(event.status).toBe('failed');
    expect(t.received).toHaveLength(1);
    expect(event.trace).toEqual([
      {
        level: 'error',
        timestamp: expect.any(String),
        message: expect.stringMatching(/^attempt 1 of 4: POST \S+ answered HTTP 406 in \d+ ms; not retried$/),
      },
    ]);
    expect(event.dispatch).toMatchObject({ errorCode: 'DELIVERY_FAILED', progressDone: 1 });
  });

  it('a tunnel answering 5xx to every attempt: failed once the attempts run out', async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    t.statuses = [500, 502, 503, 504, 500];
    await editSpace(server, owner, space.id);
    const event = await contentEvent(server, integration.name, space.id);
    expect(event.status).toBe('failed');
    expect(t.received).toHaveLength(4);
    expect(event.trace.map((l) => l.level)).toEqual(['warn', 'warn', 'warn', 'error']);
    expect(event.trace[3].message).toMatch(/^attempt 4 of 4: .* answered HTTP 504 in \d+ ms; no attempt left$/);
  });

  it("all=false sends only the owner organization's events; all=true every installing organization's", async () => {
    const { owner, integration, space: ownSpace, tunnel: t } = await setUp();
    const other = await createOrg(server.ds);
    const otherSpace = await newSpace(server, other.admin, other.org.id);
    await install(server, other.admin, integration.name, other.org.id);

    await editSpace(server, other.admin, otherSpace.id);
    const outside = await contentEvent(server, integration.name, otherSpace.id);
    expect(outside).toMatchObject({ status: 'failed', endpointUrl: null, organizationId: other.org.id });
    await editSpace(server, owner, ownSpace.id);
    expect((await contentEvent(server, integration.name, ownSpace.id)).status).toBe('success');
    expect(t.received.map((d) => d.event.spaceId)).toEqual([ownSpace.id]);

    await devMode(server, owner, integration.name, t.url, true);
    await editSpace(server, other.admin, otherSpace.id, 'Second');
    const events = (await eventsOf(server, integration.name, 'space_content_updated')).filter(
      (e) => e.spaceId === otherSpace.id,
    );
    expect(events).toHaveLength(2);
    expect((await settled(server, events[1].id)).status).toBe('success');
    expect(t.received.map((d) => d.event.spaceId)).toEqual([ownSpace.id, otherSpace.id]);

    // dev mode off: new events are not sent
    await server.as(owner.token).delete(`/v1/integrations/${integration.name}/dev`).expect(204);
    await editSpace(server, owner, ownSpace.id, 'Third');
    const last = (await eventsOf(server, integration.name, 'space_content_updated')).filter(
      (e) => e.spaceId === ownSpace.id,
    );
    expect(last[1]).toMatchObject({ status: 'failed', endpointUrl: null });
  });

  it('the tunnel calls the API back with the installation token from the environment', async () => {
    const { owner, orgId, integration, space, tunnel: t } = await setUp();
    const other = await createOrg(server.ds);
    const foreign = await newSpace(server, other.admin, other.org.id);
    const answers: Record<string, number | string> = {};
    t.onEvent = async ({ environment }) => {
      const get = (path: string) =>
        fetch(`${environment.apiEndpoint}/v1${path}`, {
          headers: { authorization: `Bearer ${environment.apiTokens.installation}` },
        });
      const own = await get(`/spaces/${space.id}`);
      answers.own = own.status;
      answers.title = ((await own.json()) as Json).title;
      answers.foreign = (await get(`/spaces/${foreign.id}`)).status;
      answers.members = (await get(`/orgs/${orgId}/members`)).status;
    };
    await editSpace(server, owner, space.id);
    expect((await contentEvent(server, integration.name, space.id)).status).toBe('success');
    expect(answers).toEqual({ own: 200, title: space.title, foreign: 404, members: 403 });
  });

  it('an event whose start was lost between its commit and its start is started by the reconciler', async () => {
    const { orgId, integration, tunnel: t } = await setUp();
    // a DataSource of its own, whose starts are lost as a crash after the commit loses them
    const bare = await createDataSource(server.config).initialize();
    try {
      const event = await inTransaction(heldBack(bare), async (db) =>
        recordIntegrationEvent(db, {
          integration: await db.findOneByOrFail(Integration, { name: integration.name }),
          installation: await db.findOneByOrFail(IntegrationInstallation, { id: integration.installationId }),
          type: 'installation_setup',
          fields: { status: 'active' },
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(await server.ds.manager.findOneByOrFail(IntegrationEvent, { id: event.id })).toMatchObject({
        status: 'pending',
        dispatch: { runId: null, startedAt: null },
      });
      expect(t.received).toHaveLength(0);
      const report = await startMissingRuns(server.temporal, server.ds.manager, {
        graceSeconds: 0,
        organizationId: orgId,
        logger: pino({ level: 'silent' }),
      });
      expect(report.started).toBeGreaterThanOrEqual(1);
      expect((await settled(server, event.id)).status).toBe('success');
      expect(t.received.map((d) => d.event.eventId)).toEqual([event.id]);
    } finally {
      await bare.destroy();
    }
  });

  it('installation_deleted reaches the tunnel after the installation is gone: signed with its secret, no installation in the environment', async () => {
    const { owner, integration, tunnel: t } = await setUp();
    const { signingSecret } = await server.ds.manager.findOneByOrFail(IntegrationInstallation, {
      id: integration.installationId,
    });
    await server
      .as(owner.token)
      .delete(`/v1/integrations/${integration.name}/installations/${integration.installationId}`)
      .expect(204);
    const [event] = await eventsOf(server, integration.name, 'installation_deleted');
    expect((await settled(server, event.id)).status).toBe('success');
    const [dispatch] = t.received;
    expect(dispatch.event).toEqual({
      eventId: event.id,
      type: 'installation_deleted',
      installationId: integration.installationId,
      previous: { configuration: {} },
    });
    expect(signatureValid(dispatch, signingSecret)).toBe(true);
    expect(dispatch.environment.installation).toBeUndefined();
    expect(gitbookSchemaErrors('IntegrationEnvironment', dispatch.environment)).toBe('');
    expect(dispatch.environment.apiTokens).toEqual({ integration: expect.any(String) });
  });

  it("an import, committed by the worker's activity, sends space_content_updated once it commits", async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    const site = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Imported\n\nText.\n'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/doc.md`;
      const { revision } = (
        await server
          .as(owner.token)
          .post(`/v1/spaces/${space.id}/content/import`)
          .send({ url, source: 'markdown' })
          .expect(201)
      ).body;
      const event = await contentEvent(server, integration.name, space.id);
      expect(event.status).toBe('success');
      expect(t.received[0].event).toMatchObject({
        type: 'space_content_updated',
        spaceId: space.id,
        revisionId: revision,
        updatedBy: [expect.objectContaining({ id: owner.user.id })],
      });
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('a visibility change sends space_visibility_updated with the previous visibility', async () => {
    const { owner, integration, space, tunnel: t } = await setUp();
    await server.as(owner.token).patch(`/v1/spaces/${space.id}`).send({ visibility: 'unlisted' }).expect(200);
    // the same visibility again changes nothing
    await server.as(owner.token).patch(`/v1/spaces/${space.id}`).send({ visibility: 'unlisted' }).expect(200);
    const events = await eventsOf(server, integration.name, 'space_visibility_updated');
    expect(events).toHaveLength(1);
    expect((await settled(server, events[0].id)).status).toBe('success');
    expect(t.received[0].event).toMatchObject({
      type: 'space_visibility_updated',
      spaceId: space.id,
      previousVisibility: 'private',
      visibility: 'unlisted',
    });
    await server.as(owner.token).patch(`/v1/spaces/${space.id}`).send({ visibility: 'in-collection' }).expect(400);
  });
});

describe('with the default configuration', () => {
  let server: TestServer;
  let worker: TestWorker;
  let t: Tunnel;

  beforeAll(async () => {
    const base = loadConfig();
    server = await startServer(dispatchConfig(base, base.publicBaseUrl, false));
    worker = await startWorker(server.ds, server.config);
    t = await new Tunnel().start();
  }, 60000);

  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await server?.close();
  });

  it('a loopback tunnel is refused: nothing reaches it, and the trace says only that the destination is not allowed or could not be reached', async () => {
    expect(server.config.fetch.allowLoopback).toBe(false);
    const { org, admin } = await createOrg(server.ds);
    const { name } = await publishAndInstall(server, admin, org.id);
    const space = await newSpace(server, admin, org.id);
    await devMode(server, admin, name, t.url);
    await editSpace(server, admin, space.id);
    const event = await contentEvent(server, name, space.id);
    expect(event.status).toBe('failed');
    // retried like a tunnel that is down: whether it was refused or down, the trace does not tell
    const said = `POST ${t.url}/v1 failed: ${t.url}/v1: the destination is not allowed or could not be reached`;
    expect(event.trace.map((l) => [l.level, l.message.replace(/ in \d+ ms.*$/, '')])).toEqual([
      ['warn', `attempt 1 of 4: ${said}`],
      ['warn', `attempt 2 of 4: ${said}`],
      ['warn', `attempt 3 of 4: ${said}`],
      ['error', `attempt 4 of 4: ${said}`],
    ]);
    expect(event.trace[3].message).toMatch(/; no attempt left$/);
    expect(event.dispatch).toMatchObject({ errorCode: 'DELIVERY_FAILED', progressDone: 4 });
    expect(event.dispatch.errorMessages?.[0].message).toMatch(/the destination is not allowed or could not be reached/);
    expect(JSON.stringify([event.trace, event.dispatch])).not.toMatch(
      /loopback|refused destination|resolves|ECONNREFUSED/,
    );
    expect(t.received).toHaveLength(0);
  });

  it('only admins of the owner organization set dev mode and read events', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { name } = await publishAndInstall(server, admin, org.id);
    const editor = await addMember(server.ds, org, 'edit');
    const outsider = await createOrg(server.ds);
    await server.as(editor.token).put(`/v1/integrations/${name}/dev`).send({ tunnelUrl: t.url }).expect(403);
    await server.as(editor.token).get(`/v1/integrations/${name}/events`).expect(403);
    // unlisted: readable by name, yet its events are the owner's
    await server.as(outsider.admin.token).get(`/v1/integrations/${name}/events`).expect(403);
  });
});
