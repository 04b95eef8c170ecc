/**
 * Integration events and development mode over the real API and database (no tunnel: the deliveries
 * are tested in test/workflows/integration-dispatch.test.ts): the events list (newest first,
 * paginated) and an event with its trace, for the owner organization's admins only; events written
 * while no tunnel receives them are failed at once with their trace line and no workflow; dev mode
 * PUT and DELETE with their input rules, 401, 403 and 404.
 */
import request from 'supertest';
import { TEMPLATES } from '../../domain/content/templates';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { addMember, createOrg, unique } from '../factories';
import { newSpace } from '../support/api';
import { install, publishAndInstall } from '../support/integration-tunnel';
import { useServer } from '../support/server';

const server = useServer();

async function privateIntegration() {
  const fx = await createOrg(server.ds);
  const name = unique('events-');
  await server
    .as(fx.admin.token)
    .post(`/v1/integrations/${name}`)
    .send({
      organization: fx.org.id,
      title: 'Private one',
      description: 'Events',
      script: 'export default {};',
      scopes: [],
      visibility: 'private',
    })
    .expect(200);
  return { ...fx, name };
}

describe('events', () => {
  it('lists the events newest first, paginated; each event read with its trace; undelivered ones failed with no workflow', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { name, installationId } = await publishAndInstall(server, admin, org.id);
    const space = await newSpace(server, admin, org.id);
    await server
      .as(admin.token)
      .post(`/v1/integrations/${name}/installations/${installationId}/spaces`)
      .send({ space: space.id })
      .expect(201);
    // installed on the organization, then on a space: two events
    const all = (await server.as(admin.token).get(`/v1/integrations/${name}/events`).expect(200)).body;
    expect(all.items).toHaveLength(2);
    const [newest, oldest] = all.items;
    expect(newest).toEqual({
      id: expect.any(String),
      integrationId: expect.any(String),
      installationId,
      createdAt: expect.any(String),
      status: 'failed',
      payload: {
        eventId: newest.id,
        type: 'space_installation_setup',
        installationId,
        spaceId: space.id,
        status: 'active',
      },
    });
    expect(oldest.payload).toEqual({
      eventId: oldest.id,
      type: 'installation_setup',
      installationId,
      status: 'active',
    });
    expect(Date.parse(newest.createdAt)).toBeGreaterThanOrEqual(Date.parse(oldest.createdAt));

    const first = (await server.as(admin.token).get(`/v1/integrations/${name}/events?limit=1`).expect(200)).body;
    expect(first.items.map((e: { id: string }) => e.id)).toEqual([newest.id]);
    const second = (
      await server
        .as(admin.token)
        .get(`/v1/integrations/${name}/events?limit=1&page=${encodeURIComponent(first.next.page)}`)
        .expect(200)
    ).body;
    expect(second.items.map((e: { id: string }) => e.id)).toEqual([oldest.id]);
    expect(second.next).toBeUndefined();

    const detail = (await server.as(admin.token).get(`/v1/integrations/${name}/events/${oldest.id}`).expect(200)).body;
    expect(detail).toEqual({
      event: oldest,
      trace: {
        logs: [
          { level: 'warn', timestamp: expect.any(String), message: expect.stringMatching(/^no endpoint configured/) },
        ],
      },
    });
    const row = await server.ds.manager.findOneByOrFail(IntegrationEvent, { id: oldest.id });
    expect(row.dispatch).toMatchObject({ generation: 0, requestedAt: null, runId: null });
  });

  it('refuses bad input (400), no token (401), others (403), unknown and private integrations and unknown events (404)', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { name } = await publishAndInstall(server, admin, org.id);
    const editor = await addMember(server.ds, org, 'edit');
    const outsider = await createOrg(server.ds);
    const hidden = await privateIntegration();
    const events = `/v1/integrations/${name}/events`;

    expect((await server.as(admin.token).get(`${events}?limit=abc`).expect(400)).body.error.message).toMatch(
      /^limit: /,
    );
    expect((await server.as(admin.token).get(`${events}?page=forged`).expect(400)).body.error.message).toMatch(/page/);
    await request(server.app).get(events).expect(401);
    await server.as(editor.token).get(events).expect(403);
    await server.as(outsider.admin.token).get(events).expect(403);
    await server.as(admin.token).get(`/v1/integrations/${hidden.name}/events`).expect(404);
    await server.as(admin.token).get('/v1/integrations/no-such-integration/events').expect(404);
    await server.as(admin.token).get(`${events}/no-such-event`).expect(404);
    // an event of another integration is not found under this one
    await install(server, hidden.admin, hidden.name, hidden.org.id);
    const { id: foreign } = await server.ds.manager.findOneByOrFail(IntegrationEvent, {
      organizationId: hidden.org.id,
    });
    await server.as(admin.token).get(`${events}/${foreign}`).expect(404);
    await server.as(editor.token).get(`${events}/${foreign}`).expect(403);
  });
});

describe('space events', () => {
  it("every head move of a covered space records space_content_updated with its revision and author; a change request's edits do not", async () => {
    const { org, admin } = await createOrg(server.ds);
    const { name, installationId } = await publishAndInstall(server, admin, org.id);
    const space = await newSpace(server, admin, org.id);
    const uncovered = await createOrg(server.ds);
    const elsewhere = await newSpace(server, uncovered.admin, uncovered.org.id);
    const api = server.as(admin.token);
    const revision = async () => (await api.get(`/v1/spaces/${space.id}`).expect(200)).body.revision;
    const revisions: string[] = [];

    await api.post(`/v1/spaces/${space.id}/content/pages`).send({ title: 'Edited', markdown: 'Text.' }).expect(201);
    revisions.push(await revision());
    const cr = (await api.post(`/v1/spaces/${space.id}/change-requests`).send({ subject: 'Change' }).expect(201)).body;
    await api
      .post(`/v1/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
      .send({ title: 'Proposed', markdown: 'Text.' })
      .expect(201);
    await api.post(`/v1/spaces/${space.id}/change-requests/${cr.number}/merge`).expect(200);
    revisions.push(await revision());
    await api.post(`/v1/spaces/${space.id}/content/template`).send({ id: TEMPLATES[0].id }).expect(201);
    revisions.push(await revision());
    await server
      .as(uncovered.admin.token)
      .post(`/v1/spaces/${elsewhere.id}/content/pages`)
      .send({ title: 'Not covered', markdown: 'Text.' })
      .expect(201);

    const { items } = (await api.get(`/v1/integrations/${name}/events`).expect(200)).body;
    const content = items
      .filter((e: { payload: { type: string } }) => e.payload.type === 'space_content_updated')
      .reverse();
    expect(content.map((e: { payload: object }) => e.payload)).toEqual(
      revisions.map((revisionId) => ({
        eventId: expect.any(String),
        type: 'space_content_updated',
        installationId,
        spaceId: space.id,
        revisionId,
        updatedBy: [
          {
            object: 'user',
            id: admin.user.id,
            displayName: admin.user.displayName,
            email: admin.user.email,
            urls: { location: expect.stringMatching(new RegExp(`/v1/users/${admin.user.id}$`)) },
          },
        ],
      })),
    );
    expect(await server.ds.manager.countBy(IntegrationEvent, { spaceId: elsewhere.id })).toBe(0);
  });
});

describe('development mode', () => {
  it('PUT turns it on (204) with all defaulting to false, again with all=true; DELETE turns it off (204)', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { name } = await publishAndInstall(server, admin, org.id);
    const dev = `/v1/integrations/${name}/dev`;
    const row = () => server.ds.manager.findOneByOrFail(Integration, { name });

    await server.as(admin.token).put(dev).send({ tunnelUrl: 'https://tunnel.example.com' }).expect(204);
    expect(await row()).toMatchObject({ devTunnelUrl: 'https://tunnel.example.com', devAll: false });
    await server.as(admin.token).put(dev).send({ tunnelUrl: 'https://other.example.com/base', all: true }).expect(204);
    expect(await row()).toMatchObject({ devTunnelUrl: 'https://other.example.com/base', devAll: true });
    await server.as(admin.token).delete(dev).expect(204);
    expect(await row()).toMatchObject({ devTunnelUrl: null, devAll: false });
    await server.as(admin.token).delete(dev).expect(204);
  });

  it('refuses bad input (400), no token (401), members who are not admins and other organizations (403), unknown and private integrations (404)', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { name } = await publishAndInstall(server, admin, org.id);
    const editor = await addMember(server.ds, org, 'edit');
    const outsider = await createOrg(server.ds);
    const hidden = await privateIntegration();
    const dev = `/v1/integrations/${name}/dev`;
    const put = (body: object) => server.as(admin.token).put(dev).send(body);

    const refusals: Array<[object, RegExp]> = [
      [{}, /^tunnelUrl: /],
      [{ tunnelUrl: '' }, /^tunnelUrl: /],
      [{ tunnelUrl: 'not a url' }, /^tunnelUrl: /],
      [{ tunnelUrl: 'ftp://tunnel.example.com' }, /^tunnelUrl: must be an http or https URL/],
      [{ tunnelUrl: `https://tunnel.example.com/${'a'.repeat(250)}` }, /^tunnelUrl: /],
      [{ tunnelUrl: 'https://tunnel.example.com', all: 'yes' }, /^all: /],
      [{ tunnelUrl: 'https://tunnel.example.com', extra: 1 }, /extra/],
    ];
    for (const [body, message] of refusals) expect((await put(body).expect(400)).body.error.message).toMatch(message);
    const anonymous = request(server.app);
    await anonymous.put(dev).send({ tunnelUrl: 'https://tunnel.example.com' }).expect(401);
    await anonymous.delete(dev).expect(401);
    await server.as(editor.token).put(dev).send({ tunnelUrl: 'https://tunnel.example.com' }).expect(403);
    await server.as(editor.token).delete(dev).expect(403);
    await server.as(outsider.admin.token).put(dev).send({ tunnelUrl: 'https://tunnel.example.com' }).expect(403);
    await server
      .as(admin.token)
      .put(`/v1/integrations/${hidden.name}/dev`)
      .send({ tunnelUrl: 'https://tunnel.example.com' })
      .expect(404);
    await server.as(admin.token).delete(`/v1/integrations/${hidden.name}/dev`).expect(204);
    await server
      .as(admin.token)
      .put('/v1/integrations/no-such-integration/dev')
      .send({ tunnelUrl: 'https://tunnel.example.com' })
      .expect(404);
    expect(await server.ds.manager.findOneByOrFail(Integration, { name })).toMatchObject({ devTunnelUrl: null });
  });
});
