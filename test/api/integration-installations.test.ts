/**
 * Installations over the real API and database: install on an
 * organization (201, 200 again, pending/active from the account configuration), the lists with their
 * filters, the installation item, installs on spaces and sites with their items and lists
 * (externalId, extended), space_selection/site_selection, the published site's scripts, the events
 * each change records, and who may do what (401, 403, 404 for another organization or a private
 * integration, 400 for bad input).
 */

import { installationsCoveringSite, installationsCoveringSpace } from '../../domain/integrations/installation-queries';
import { addOrUpdateMember } from '../../domain/organizations/membership';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import { Site } from '../../entities/Site';
import { Space } from '../../entities/Space';
import { addMember, createOrg, OrgFixture, unique } from '../factories';
import { Json, listAll, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, sitesPath } from '../support/sites';

const server = useServer();

const ACCOUNT_CONFIGURATION = {
  properties: {
    apiKey: { type: 'string', title: 'API key' },
    mode: { type: 'string', title: 'Mode', enum: ['fast', 'safe'] },
    limit: { type: 'number', title: 'Limit' },
  },
  required: ['apiKey'],
};

/** Publishes an integration of the organization through the API; unlisted (installable anywhere) unless said. */
async function publish(fx: OrgFixture, extra: Json = {}): Promise<string> {
  const name = unique('inst-');
  await server
    .as(fx.admin.token)
    .post(`/v1/integrations/${name}`)
    .send({
      organization: fx.org.id,
      title: 'Installable',
      description: 'Installed here and there',
      script: 'export default {};\n',
      scopes: ['space:content:read'],
      visibility: 'unlisted',
      ...extra,
    })
    .expect(200);
  return name;
}

const installations = (name: string) => `/v1/integrations/${name}/installations`;

async function install(fx: OrgFixture, name: string, status = 201): Promise<Json> {
  return (await server.as(fx.admin.token).post(installations(name)).send({ organization: fx.org.id }).expect(status))
    .body;
}

/** The events recorded for the installation, oldest first, as `type` plus the payload's own fields. */
async function eventsOf(installationId: string): Promise<Json[]> {
  const rows = await server.ds
    .getRepository(IntegrationEvent)
    .find({ where: { installationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  return rows.map((e) => {
    const { eventId, ...payload } = e.payload;
    expect(eventId).toBe(e.id);
    return payload;
  });
}

/** Lists run oldest first, then by id (binary order): the ids of `[createdAt, id]` keys in that order. */
function inListOrder(keys: Array<[string | Date, string]>): string[] {
  const at = (t: string | Date) => new Date(t).getTime();
  return [...keys].sort(([ta, a], [tb, b]) => at(ta) - at(tb) || (a < b ? -1 : 1)).map(([, id]) => id);
}

async function spaceInstallationKeys(installationId: string): Promise<Array<[Date, string]>> {
  return (await server.ds.getRepository(IntegrationSpaceInstallation).findBy({ installationId })).map((r) => [
    r.createdAt,
    r.spaceId,
  ]);
}

describe('installing on an organization', () => {
  it('answers 201 with the installation, then 200 with the same one; pending until the required account configuration is set', async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev, { configurations: { account: ACCOUNT_CONFIGURATION } });
    const customer = await createOrg(server.ds);

    const res = await server
      .as(customer.admin.token)
      .post(installations(name))
      .send({ organization: customer.org.id })
      .expect(201);
    const installation = res.body;
    const location = `${server.config.publicBaseUrl}/v1/integrations/${name}/installations/${installation.id}`;
    expect(res.headers.location).toBe(location);
    const integration = (await server.as(dev.admin.token).get(`/v1/integrations/${name}`).expect(200)).body;
    expect(installation).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
      status: 'pending',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      configuration: {},
      externalIds: [],
      scopesPendingApproval: [],
      target: { organization: customer.org.id },
      urls: {
        location,
        app: `${server.config.appBaseUrl}/o/${customer.org.id}/integrations/${name}`,
        publicEndpoint: integration.urls.publicEndpoint,
        publicContentEndpoint: integration.urls.publicEndpoint,
      },
      createdAt: expect.any(String),
      updatedAt: installation.createdAt,
    });
    expect(await eventsOf(installation.id)).toEqual([
      { type: 'installation_setup', installationId: installation.id, status: 'pending' },
    ]);

    // installing again is the same installation, and no new event
    const again = await install(customer, name, 200);
    expect(again).toEqual(installation);
    expect(await eventsOf(installation.id)).toHaveLength(1);

    // setting the required property makes it active: one event, with the previous state
    const patched = (
      await server
        .as(customer.admin.token)
        .patch(`${installations(name)}/${installation.id}`)
        .send({ configuration: { apiKey: 'k-1', mode: 'fast' } })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({ status: 'active', configuration: { apiKey: 'k-1', mode: 'fast' } });
    expect(new Date(patched.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(installation.updatedAt).getTime());
    // the configuration is replaced whole: without apiKey it is pending again
    await server
      .as(customer.admin.token)
      .patch(`${installations(name)}/${installation.id}`)
      .send({ configuration: { mode: 'safe' } })
      .expect(200);
    expect((await eventsOf(installation.id)).slice(1)).toEqual([
      {
        type: 'installation_setup',
        installationId: installation.id,
        status: 'active',
        previous: { status: 'pending', configuration: {} },
      },
      {
        type: 'installation_setup',
        installationId: installation.id,
        status: 'pending',
        previous: { status: 'active', configuration: { apiKey: 'k-1', mode: 'fast' } },
      },
    ]);
    // external ids alone change neither status nor configuration: no event
    await server
      .as(customer.admin.token)
      .patch(`${installations(name)}/${installation.id}`)
      .send({ externalIds: ['acct-1'] })
      .expect(200);
    expect(await eventsOf(installation.id)).toHaveLength(3);

    // an integration that requires nothing installs active
    const plain = await publish(dev);
    expect((await install(customer, plain)).status).toBe('active');
  });

  it('needs an admin of the target organization, and a private integration installs only in its owner organization', async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev);
    const privateName = await publish(dev, { visibility: 'private' });
    const customer = await createOrg(server.ds);
    const editor = await addMember(server.ds, customer.org, 'edit');
    const send = (token: string, integration: string, body: unknown) =>
      server
        .as(token)
        .post(installations(integration))
        .send(body as object);

    await server.as('nope').post(installations(name)).send({ organization: customer.org.id }).expect(401);
    expect((await send(editor.token, name, { organization: customer.org.id }).expect(403)).body.error.message).toBe(
      'you need the "installIntegration" permission on this organization',
    );
    // an organization the caller is not a member of, or none at all
    await send(customer.admin.token, name, { organization: dev.org.id }).expect(404);
    expect(
      (await send(customer.admin.token, name, { organization: 'nosuchorganization000' }).expect(404)).body.error
        .message,
    ).toBe('organization not found');
    await send(customer.admin.token, unique('missing-'), { organization: customer.org.id }).expect(404);
    // another organization's private integration does not exist for the caller
    expect(
      (await send(customer.admin.token, privateName, { organization: customer.org.id }).expect(404)).body.error.message,
    ).toBe('integration not found');
    // its owner's admin sees it, but may not install it in another organization they administer
    await addOrUpdateMember(server.ds.manager, customer.org.id, dev.admin.user.id, 'admin');
    expect(
      (await send(dev.admin.token, privateName, { organization: customer.org.id }).expect(403)).body.error.message,
    ).toBe('a private integration installs only in the organization that publishes it');
    expect((await send(dev.admin.token, privateName, { organization: dev.org.id }).expect(201)).body.status).toBe(
      'active',
    );

    // strict body
    expect((await send(customer.admin.token, name, {}).expect(400)).body.error.message).toBe(
      'organization: is required',
    );
    expect(
      (await send(customer.admin.token, name, { organization: customer.org.id, space: 'x' }).expect(400)).body.error
        .message,
    ).toBe('space: unknown field; accepted: organization');
    expect(
      (await send(customer.admin.token, name, { organization: 'not an id' }).expect(400)).body.error.message,
    ).toMatch(/^organization: /);
    expect((await send(customer.admin.token, name, { organization: 12 }).expect(400)).body.error.message).toBe(
      'organization: must be a string, not number',
    );
    await server
      .as(customer.admin.token)
      .post(installations(name))
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(415);
    expect(await server.ds.getRepository(IntegrationInstallation).countBy({ organizationId: customer.org.id })).toBe(0);
  });
});

describe('the installation lists', () => {
  it("lists the integration's installations to its owner's admins, paginated and by external id", async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev);
    const customers = [await createOrg(server.ds), await createOrg(server.ds), await createOrg(server.ds)];
    const installed = [];
    for (const c of customers) installed.push(await install(c, name));
    await server
      .as(customers[1].admin.token)
      .patch(`${installations(name)}/${installed[1].id}`)
      .send({ externalIds: ['team-7', 'x'] })
      .expect(200);

    const all = await listAll(server, dev.admin, installations(name), { limit: 2 });
    expect(all.ids).toEqual(inListOrder(installed.map((i) => [i.createdAt, i.id])));
    expect(all.pages).toBe(2);
    expect(all.counts).toEqual([3, 3]);
    expect(all.items[1].externalIds).toEqual(['team-7', 'x']);
    const byExternal = (
      await server.as(dev.admin.token).get(installations(name)).query({ externalId: 'team-7' }).expect(200)
    ).body;
    expect(byExternal).toEqual({ items: [expect.objectContaining({ id: installed[1].id })], count: 1 });
    expect(
      (await server.as(dev.admin.token).get(installations(name)).query({ externalId: 'team' }).expect(200)).body.count,
    ).toBe(0);

    // a repeated parameter is refused, never a 500
    expect(
      (await server.as(dev.admin.token).get(installations(name)).query('externalId=a&externalId=b').expect(400)).body
        .error.message,
    ).toBe('externalId: must be a string, not array');
    expect(
      (
        await server
          .as(dev.admin.token)
          .get(`/v1/integrations/${name}/spaces`)
          .query('extended=true&extended=false')
          .expect(400)
      ).body.error.message,
    ).toMatch(/^extended: /);
    // a cursor is bound to its filter, and a forged one is refused
    const first = (await server.as(dev.admin.token).get(installations(name)).query({ limit: 1 }).expect(200)).body;
    await server
      .as(dev.admin.token)
      .get(installations(name))
      .query({ limit: 1, page: first.next.page, externalId: 'x' })
      .expect(400);
    expect(
      (await server.as(dev.admin.token).get(installations(name)).query({ limit: 1001 }).expect(400)).body.error.message,
    ).toBe('limit: must be at most 1000');

    // only the owner's admins: a customer's admin or the owner's plain members get 403, 401 without a token
    await server.as(customers[0].admin.token).get(installations(name)).expect(403);
    await server
      .as((await addMember(server.ds, dev.org, 'create')).token)
      .get(installations(name))
      .expect(403);
    await server.as('nope').get(installations(name)).expect(401);
    await server
      .as(dev.admin.token)
      .get(installations(unique('missing-')))
      .expect(404);
    const privateName = await publish(dev, { visibility: 'private' });
    expect(
      (await server.as(customers[0].admin.token).get(installations(privateName)).expect(404)).body.error.message,
    ).toBe('integration not found');
  });
});

describe('the installation item', () => {
  it('is read by the owner admins and the installing members, changed and removed by the installing admins', async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev, { configurations: { account: ACCOUNT_CONFIGURATION } });
    const customer = await createOrg(server.ds);
    const member = await addMember(server.ds, customer.org, 'read');
    const guest = await addMember(server.ds, customer.org, null);
    const outsider = await createOrg(server.ds);
    const installation = await install(customer, name);
    const item = `${installations(name)}/${installation.id}`;

    for (const reader of [dev.admin, customer.admin, member])
      expect((await server.as(reader.token).get(item).expect(200)).body).toEqual(installation);
    expect((await server.as(outsider.admin.token).get(item).expect(404)).body.error.message).toBe(
      'installation not found',
    );
    await server.as(guest.token).get(item).expect(404);
    await server.as('nope').get(item).expect(401);
    await server
      .as(customer.admin.token)
      .get(`${installations(name)}/nosuchinstallation000`)
      .expect(404);
    await server
      .as(customer.admin.token)
      .get(`${installations(name)}/not*an*id`)
      .expect(404);
    await server
      .as(customer.admin.token)
      .get(`${installations(unique('missing-'))}/${installation.id}`)
      .expect(404);
    // the id of one integration's installation names nothing under another
    const other = await publish(dev);
    await server
      .as(customer.admin.token)
      .get(`${installations(other)}/${installation.id}`)
      .expect(404);

    // PATCH: strict body, checked configuration, the installing organization's admins only
    const patch = (token: string, body: unknown) =>
      server
        .as(token)
        .patch(item)
        .send(body as object);
    const refusals: Array<[unknown, string]> = [
      [{}, 'request body: must have at least one field'],
      [
        { status: 'active' },
        'status: unknown field; accepted: externalIds, configuration, space_selection, site_selection',
      ],
      [{ configuration: { apiKey: 12 } }, 'configuration.apiKey: must be a string'],
      [{ configuration: { mode: 'slow' } }, 'configuration.mode: must be one of fast, safe'],
      [{ configuration: { limit: '3' } }, 'configuration.limit: must be a number'],
      [{ configuration: [] }, 'configuration: must be an object, not array'],
      [{ configuration: { big: 'x'.repeat(70000) } }, 'configuration: must be at most 65536 bytes of JSON'],
      [{ externalIds: ['1', '2', '3', '4', '5', '6'] }, 'externalIds: must have at most 5 items'],
      [{ externalIds: ['a', 'a'] }, 'externalIds: must not repeat a value'],
      [{ externalIds: [''] }, 'externalIds.0: must be at least 1 character'],
      [{ space_selection: 'some' }, 'space_selection: must be one of all, selected'],
    ];
    for (const [body, message] of refusals)
      expect([body, (await patch(customer.admin.token, body).expect(400)).body.error.message]).toEqual([body, message]);
    await patch(member.token, { externalIds: ['a'] }).expect(403);
    expect((await patch(dev.admin.token, { externalIds: ['a'] }).expect(403)).body.error.message).toBe(
      'you need the "admin" permission on this integrationInstallation',
    );
    await patch(outsider.admin.token, { externalIds: ['a'] }).expect(404);
    await server
      .as('nope')
      .patch(item)
      .send({ externalIds: ['a'] })
      .expect(401);
    // other keys are the integration's own; a declared property may be cleared with null
    const patched = (
      await patch(customer.admin.token, {
        configuration: { apiKey: 'k', mode: null, state: { cursor: 3 } },
        externalIds: ['e1'],
        site_selection: 'all',
      }).expect(200)
    ).body;
    expect(patched).toMatchObject({
      status: 'active',
      configuration: { apiKey: 'k', mode: null, state: { cursor: 3 } },
      externalIds: ['e1'],
      site_selection: 'all',
      space_selection: 'selected',
    });
    expect((await server.as(dev.admin.token).get(item).expect(200)).body).toEqual(patched);

    // DELETE: 204 also when there is nothing the caller sees; 403 for a member who sees it
    await server.as(outsider.admin.token).delete(item).expect(204);
    await server.as(member.token).delete(item).expect(403);
    await server.as(dev.admin.token).delete(item).expect(403);
    await server.as('nope').delete(item).expect(401);
    await server.as(customer.admin.token).get(item).expect(200);
    await server.as(customer.admin.token).delete(item).expect(204);
    await server.as(customer.admin.token).get(item).expect(404);
    await server.as(customer.admin.token).delete(item).expect(204);
    expect((await eventsOf(installation.id)).map((e) => e.type)).toEqual([
      'installation_setup',
      'installation_setup',
      'installation_deleted',
    ]);
    expect((await eventsOf(installation.id))[2]).toEqual({
      type: 'installation_deleted',
      installationId: installation.id,
      previous: { configuration: { apiKey: 'k', mode: null, state: { cursor: 3 } } },
    });
    // it may be installed again: a new installation
    expect((await install(customer, name)).id).not.toBe(installation.id);
  });
});

describe('installing on spaces', () => {
  it('installs on a space of the organization, lists with externalId and extended, updates and uninstalls, each with its event', async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev, {
      configurations: {
        space: { properties: { channel: { type: 'string', title: 'Channel' } }, required: ['channel'] },
      },
    });
    const customer = await createOrg(server.ds);
    const installation = await install(customer, name);
    const spacesOf = `${installations(name)}/${installation.id}/spaces`;
    const guide = await newSpace(server, customer.admin, customer.org.id, { title: 'Guide' });
    const api = await newSpace(server, customer.admin, customer.org.id, { title: 'API' });

    const res = await server.as(customer.admin.token).post(spacesOf).send({ space: guide.id }).expect(201);
    const location = `${server.config.publicBaseUrl}/v1/integrations/${name}/installations/${installation.id}/spaces/${guide.id}`;
    expect(res.headers.location).toBe(location);
    expect(res.body).toEqual({
      integration: name,
      installation: installation.id,
      status: 'pending',
      configuration: {},
      externalIds: [],
      urls: {
        location,
        publicEndpoint: installation.urls.publicEndpoint,
        publicContentEndpoint: installation.urls.publicEndpoint,
      },
      space: guide.id,
    });
    expect((await server.as(customer.admin.token).post(spacesOf).send({ space: guide.id }).expect(200)).body).toEqual(
      res.body,
    );
    await server
      .as(customer.admin.token)
      .post(spacesOf)
      .query({ extended: 'true' })
      .send({ space: api.id })
      .expect(201);
    expect(
      (
        await server
          .as(customer.admin.token)
          .get(`${installations(name)}/${installation.id}`)
          .expect(200)
      ).body.spaces,
    ).toBe(2);

    // PATCH the space's configuration: active, with the previous state in the event
    const guideItem = `${spacesOf}/${guide.id}`;
    const patched = (
      await server
        .as(customer.admin.token)
        .patch(guideItem)
        .query({ extended: 'true' })
        .send({ configuration: { channel: '#docs' }, externalIds: ['chan-1'] })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({
      status: 'active',
      configuration: { channel: '#docs' },
      externalIds: ['chan-1'],
      space: { object: 'space', id: guide.id, title: 'Guide' },
    });
    expect(
      (
        await server
          .as(customer.admin.token)
          .patch(guideItem)
          .send({ configuration: { channel: 3 } })
          .expect(400)
      ).body.error.message,
    ).toBe('configuration.channel: must be a string');
    expect(
      (await server.as(customer.admin.token).patch(guideItem).send({ space: api.id }).expect(400)).body.error.message,
    ).toBe('space: unknown field; accepted: externalIds, configuration');
    expect((await eventsOf(installation.id)).filter((e) => e.type.startsWith('space_'))).toEqual([
      { type: 'space_installation_setup', installationId: installation.id, spaceId: guide.id, status: 'pending' },
      { type: 'space_installation_setup', installationId: installation.id, spaceId: api.id, status: 'pending' },
      {
        type: 'space_installation_setup',
        installationId: installation.id,
        spaceId: guide.id,
        status: 'active',
        previous: { status: 'pending', configuration: {} },
      },
    ]);
    const event = await server.ds
      .getRepository(IntegrationEvent)
      .findOneByOrFail({ installationId: installation.id, type: 'space_installation_setup', spaceId: guide.id });
    expect(event.organizationId).toBe(customer.org.id);

    // the item, and the lists: the installation's, and the integration's with externalId and extended
    expect((await server.as(dev.admin.token).get(guideItem).expect(200)).body).toEqual({ ...patched, space: guide.id });
    const extendedItem = (await server.as(customer.admin.token).get(guideItem).query({ extended: 'true' }).expect(200))
      .body;
    expect(extendedItem.space).toMatchObject({
      object: 'space',
      id: guide.id,
      permissions: expect.objectContaining({ admin: true, installIntegration: true }),
    });
    const ofInstallation = await listAll(server, customer.admin, spacesOf, { limit: 1 });
    const spaceOrder = inListOrder(await spaceInstallationKeys(installation.id));
    expect(spaceOrder).toEqual(expect.arrayContaining([guide.id, api.id]));
    expect(ofInstallation.items.map((i) => i.space)).toEqual(spaceOrder);
    expect(ofInstallation.pages).toBe(2);
    const integrationSpaces = `/v1/integrations/${name}/spaces`;
    const listed = (await server.as(dev.admin.token).get(integrationSpaces).expect(200)).body;
    expect(listed.items.map((i: Json) => i.space)).toEqual(spaceOrder);
    const filtered = (
      await server
        .as(dev.admin.token)
        .get(integrationSpaces)
        .query({ externalId: 'chan-1', extended: 'true' })
        .expect(200)
    ).body;
    expect(filtered.count).toBe(1);
    expect(filtered.items[0].space).toMatchObject({
      object: 'space',
      id: guide.id,
      title: 'Guide',
      permissions: expect.objectContaining({ view: false }),
    });
    expect(
      (await server.as(dev.admin.token).get(integrationSpaces).query({ extended: 'yes' }).expect(400)).body.error
        .message,
    ).toBe('extended: must be one of true, false');
    await server.as(customer.admin.token).get(integrationSpaces).expect(403);

    // who may: a space admin (not an organization admin) installs on their space; a reader may not
    const spaceAdmin = await addMember(server.ds, customer.org, 'read');
    await server
      .as(customer.admin.token)
      .put(`/v1/spaces/${api.id}/permissions/users/${spaceAdmin.user.id}`)
      .send({ role: 'admin' })
      .expect(204);
    await server
      .as(spaceAdmin.token)
      .patch(`${spacesOf}/${api.id}`)
      .send({ externalIds: ['api'] })
      .expect(200);
    await server
      .as(spaceAdmin.token)
      .patch(guideItem)
      .send({ externalIds: ['api'] })
      .expect(403);
    const reader = await addMember(server.ds, customer.org, 'read');
    expect(
      (await server.as(reader.token).post(spacesOf).send({ space: guide.id }).expect(403)).body.error.message,
    ).toBe('you need the "installIntegration" permission on this space');
    await server.as(reader.token).patch(guideItem).send({ externalIds: [] }).expect(403);
    await server.as(reader.token).delete(guideItem).expect(403);
    await server.as(reader.token).get(guideItem).expect(200);
    // the developer reads but does not change the customer's spaces
    await server.as(dev.admin.token).delete(guideItem).expect(403);
    await server.as('nope').post(spacesOf).send({ space: guide.id }).expect(401);
    // a space of another organization, or none, is not the installation's
    const elsewhere = await newSpace(server, dev.admin, dev.org.id);
    expect(
      (await server.as(customer.admin.token).post(spacesOf).send({ space: elsewhere.id }).expect(404)).body.error
        .message,
    ).toBe('space not found');
    await server.as(dev.admin.token).post(spacesOf).send({ space: elsewhere.id }).expect(404);
    await server.as(customer.admin.token).post(spacesOf).send({ space: 'nosuchspace0000000000' }).expect(404);
    expect((await server.as(customer.admin.token).post(spacesOf).send({}).expect(400)).body.error.message).toBe(
      'space: is required',
    );
    expect(
      (await server.as(customer.admin.token).post(spacesOf).send({ space: guide.id, spaceId: guide.id }).expect(400))
        .body.error.message,
    ).toBe('spaceId: unknown field; did you mean space?');
    await server.as(customer.admin.token).get(`${spacesOf}/${elsewhere.id}`).expect(404);
    await server.as(customer.admin.token).delete(`${spacesOf}/${elsewhere.id}`).expect(204);

    // uninstall from a space: its event with the previous configuration
    await server.as(customer.admin.token).delete(guideItem).expect(204);
    await server.as(customer.admin.token).get(guideItem).expect(404);
    await server.as(customer.admin.token).delete(guideItem).expect(204);
    expect((await eventsOf(installation.id)).pop()).toEqual({
      type: 'space_installation_deleted',
      installationId: installation.id,
      spaceId: guide.id,
      previous: { configuration: { channel: '#docs' } },
    });

    // a deleted space's installation is no longer seen or counted
    await server.as(customer.admin.token).delete(`/v1/spaces/${api.id}`).expect(204);
    await server.as(customer.admin.token).get(`${spacesOf}/${api.id}`).expect(404);
    expect((await server.as(dev.admin.token).get(integrationSpaces).expect(200)).body.count).toBe(0);
    expect(
      (
        await server
          .as(customer.admin.token)
          .get(`${installations(name)}/${installation.id}`)
          .expect(200)
      ).body.spaces,
    ).toBe(0);
  });

  it("refuses spaces when the integration's target excludes them, and uninstalling the organization takes its spaces along", async () => {
    const dev = await createOrg(server.ds);
    const siteOnly = await publish(dev, { target: 'site' });
    const customer = await createOrg(server.ds);
    const space = await newSpace(server, customer.admin, customer.org.id);
    const installation = await install(customer, siteOnly);
    expect(
      (
        await server
          .as(customer.admin.token)
          .post(`${installations(siteOnly)}/${installation.id}/spaces`)
          .send({ space: space.id })
          .expect(400)
      ).body.error.message,
    ).toBe('space: this integration installs on sites only');

    const name = await publish(dev);
    const other = await install(customer, name);
    await server
      .as(customer.admin.token)
      .post(`${installations(name)}/${other.id}/spaces`)
      .send({ space: space.id })
      .expect(201);
    await server
      .as(customer.admin.token)
      .delete(`${installations(name)}/${other.id}`)
      .expect(204);
    expect(await server.ds.getRepository(IntegrationSpaceInstallation).countBy({ installationId: other.id })).toBe(0);
  });
});

describe('what an installation covers', () => {
  it('covers the spaces and sites it is installed on, or all of them with space_selection/site_selection all', async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev);
    const customer = await createOrg(server.ds);
    const [one, two] = [
      await newSpace(server, customer.admin, customer.org.id),
      await newSpace(server, customer.admin, customer.org.id),
    ];
    const site = await newSite(server, customer.admin, customer.org.id, { title: 'Docs', spaces: [one.id] });
    const installation = await install(customer, name);
    const item = `${installations(name)}/${installation.id}`;
    const covering = async (spaceId: string) =>
      (
        await installationsCoveringSpace(
          server.ds.manager,
          await server.ds.getRepository(Space).findOneByOrFail({ id: spaceId }),
        )
      ).map((c) => [c.integration.name, c.installation.id, c.spaceInstallation?.spaceId ?? null]);
    const coveringSite = async () =>
      (
        await installationsCoveringSite(
          server.ds.manager,
          await server.ds.getRepository(Site).findOneByOrFail({ id: site.id }),
        )
      ).map((c) => [c.installation.id, c.siteInstallation?.siteId ?? null]);

    expect(await covering(one.id)).toEqual([]);
    expect(await coveringSite()).toEqual([]);
    await server.as(customer.admin.token).post(`${item}/spaces`).send({ space: one.id }).expect(201);
    await server.as(customer.admin.token).post(`${item}/sites`).send({ siteId: site.id }).expect(201);
    expect(await covering(one.id)).toEqual([[name, installation.id, one.id]]);
    expect(await covering(two.id)).toEqual([]);
    expect(await coveringSite()).toEqual([[installation.id, site.id]]);

    const all = (await server.as(customer.admin.token).patch(item).send({ space_selection: 'all' }).expect(200)).body;
    expect(all).toMatchObject({ space_selection: 'all', spaces: 2 });
    expect(await covering(two.id)).toEqual([[name, installation.id, null]]);
    await server.as(customer.admin.token).delete(`${item}/sites/${site.id}`).expect(204);
    expect(await coveringSite()).toEqual([]);
    await server.as(customer.admin.token).patch(item).send({ site_selection: 'all' }).expect(200);
    expect(await coveringSite()).toEqual([[installation.id, null]]);

    // another organization's installation never covers this one's spaces; a deleted space is covered by none
    const elsewhere = await createOrg(server.ds);
    await server
      .as(elsewhere.admin.token)
      .patch(`${installations(name)}/${(await install(elsewhere, name)).id}`)
      .send({ space_selection: 'all' })
      .expect(200);
    expect(await covering(two.id)).toEqual([[name, installation.id, null]]);
    await server.as(customer.admin.token).delete(`/v1/spaces/${two.id}`).expect(204);
    expect(
      await installationsCoveringSpace(
        server.ds.manager,
        await server.ds.getRepository(Space).findOneByOrFail({ id: two.id }),
      ),
    ).toEqual([]);
    // an unpublished integration covers nothing
    await server.as(dev.admin.token).delete(`/v1/integrations/${name}`).expect(204);
    expect(await covering(one.id)).toEqual([]);
    expect(await server.ds.getRepository(IntegrationInstallation).countBy({ id: installation.id })).toBe(0);
  });
});

describe('installing on sites', () => {
  it("installs on a site, shows the integration's script in the published site, lists and uninstalls; deleting the site uninstalls it", async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev, {
      scopes: ['site:script:inject', 'site:script:cookies'],
      contentSecurityPolicy: "script-src 'self'",
      configurations: { account: ACCOUNT_CONFIGURATION },
    });
    const plain = await publish(dev, { scopes: ['site:metadata:read'] });
    const customer = await createOrg(server.ds);
    const space = await newSpace(server, customer.admin, customer.org.id, { title: 'Guide' });
    const site = await newSite(server, customer.admin, customer.org.id, { title: 'Docs', spaces: [space.id] });
    const siteBase = `${sitesPath(customer.org.id)}/${site.id}`;
    await server.as(customer.admin.token).post(`${siteBase}/publish`).expect(200);
    const scripts = async () =>
      (await server.as(customer.admin.token).get(`${siteBase}/published`).expect(200)).body.scripts;

    const installation = await install(customer, name);
    const sitesOf = `${installations(name)}/${installation.id}/sites`;
    const res = await server.as(customer.admin.token).post(sitesOf).send({ siteId: site.id }).expect(201);
    const location = `${server.config.publicBaseUrl}/v1/integrations/${name}/installations/${installation.id}/sites/${site.id}`;
    expect(res.headers.location).toBe(location);
    expect(res.body).toMatchObject({
      integration: name,
      installation: installation.id,
      status: 'active',
      site: site.id,
      urls: { location },
    });
    const plainInstallation = await install(customer, plain);
    await server
      .as(customer.admin.token)
      .post(`${installations(plain)}/${plainInstallation.id}/sites`)
      .send({ siteId: site.id })
      .expect(201);

    // the installation is pending (its apiKey is missing): no script yet
    expect(await scripts()).toEqual([]);
    await server
      .as(customer.admin.token)
      .patch(`${installations(name)}/${installation.id}`)
      .send({ configuration: { apiKey: 'k' } })
      .expect(200);
    expect(await scripts()).toEqual([
      { script: installation.urls.publicEndpoint, contentSecurityPolicy: "script-src 'self'", cookies: true },
    ]);
    // the script URL serves the integration's script
    const served = await server
      .as(customer.admin.token)
      .get(new URL(installation.urls.publicEndpoint).pathname)
      .expect(200);
    expect(served.text).toBe('export default {};\n');

    // items and lists, extended into Site objects
    const siteItem = `${sitesOf}/${site.id}`;
    expect(
      (await server.as(customer.admin.token).get(siteItem).query({ extended: 'true' }).expect(200)).body.site,
    ).toMatchObject({ object: 'site', id: site.id, title: 'Docs' });
    await server
      .as(customer.admin.token)
      .patch(siteItem)
      .send({ externalIds: ['site-ext'] })
      .expect(200);
    const listed = (
      await server
        .as(dev.admin.token)
        .get(`/v1/integrations/${name}/sites`)
        .query({ externalId: 'site-ext', extended: 'true' })
        .expect(200)
    ).body;
    expect(listed).toEqual({
      items: [
        expect.objectContaining({
          installation: installation.id,
          externalIds: ['site-ext'],
          site: expect.objectContaining({ id: site.id }),
        }),
      ],
      count: 1,
    });
    expect(
      (await server.as(dev.admin.token).get(`/v1/integrations/${name}/sites`).query({ externalId: 'nope' }).expect(200))
        .body.count,
    ).toBe(0);
    expect(
      (await server.as(customer.admin.token).get(sitesOf).expect(200)).body.items.map((i: Json) => i.site),
    ).toEqual([site.id]);
    await server.as(customer.admin.token).get(`/v1/integrations/${name}/sites`).expect(403);

    // only the organization's admins install on sites
    const editor = await addMember(server.ds, customer.org, 'edit');
    expect((await server.as(editor.token).post(sitesOf).send({ siteId: site.id }).expect(403)).body.error.message).toBe(
      'you need the "installIntegration" permission on this site',
    );
    await server.as(editor.token).delete(siteItem).expect(403);
    expect(
      (await server.as(customer.admin.token).post(sitesOf).send({ siteId: 'nosuchsite00000000000' }).expect(404)).body
        .error.message,
    ).toBe('site not found');
    expect(
      (await server.as(customer.admin.token).post(sitesOf).send({ siteId: site.id, site: site.id }).expect(400)).body
        .error.message,
    ).toBe('site: unknown field; did you mean siteId?');

    // a space-only integration is refused on sites
    const spaceOnly = await publish(dev, { target: 'space' });
    const spaceOnlyInstallation = await install(customer, spaceOnly);
    expect(
      (
        await server
          .as(customer.admin.token)
          .post(`${installations(spaceOnly)}/${spaceOnlyInstallation.id}/sites`)
          .send({ siteId: site.id })
          .expect(400)
      ).body.error.message,
    ).toBe('siteId: this integration installs on spaces only');

    // uninstalling from the site removes the script
    await server.as(customer.admin.token).delete(siteItem).expect(204);
    expect(await scripts()).toEqual([]);
    expect((await eventsOf(installation.id)).filter((e) => e.type.startsWith('site_')).map((e) => e.type)).toEqual([
      'site_installation_setup',
      'site_installation_deleted',
    ]);

    // deleting the site uninstalls what remains on it, each with its event
    await server.as(customer.admin.token).delete(siteBase).expect(204);
    expect(await server.ds.getRepository(IntegrationSiteInstallation).countBy({ siteId: site.id })).toBe(0);
    expect((await eventsOf(plainInstallation.id)).map((e) => e.type)).toEqual([
      'installation_setup',
      'site_installation_setup',
      'site_installation_deleted',
    ]);
  });
});

describe('concurrent installs', () => {
  it('make one installation: the others answer 200 with it', async () => {
    const dev = await createOrg(server.ds);
    const name = await publish(dev);
    const customer = await createOrg(server.ds);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        server.as(customer.admin.token).post(installations(name)).send({ organization: customer.org.id }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await server.ds.getRepository(IntegrationInstallation).countBy({ organizationId: customer.org.id })).toBe(1);
    expect(await eventsOf(answers[0].body.id)).toHaveLength(1);
    // the integration row is untouched by installs
    expect((await server.ds.getRepository(Integration).findOneByOrFail({ name })).version).toBe(1);
  });
});

describe('every installation operation', () => {
  it('answers 401 without a valid token', async () => {
    const base = '/v1/integrations/any-name/installations/anyinstallation000000';
    const operations: Array<['get' | 'post' | 'patch' | 'delete', string]> = [
      ['get', '/v1/integrations/any-name/installations'],
      ['post', '/v1/integrations/any-name/installations'],
      ['get', '/v1/integrations/any-name/spaces'],
      ['get', '/v1/integrations/any-name/sites'],
      ['get', base],
      ['patch', base],
      ['delete', base],
      ...(['spaces', 'sites'] as const).flatMap(
        (kind): Array<['get' | 'post' | 'patch' | 'delete', string]> => [
          ['get', `${base}/${kind}`],
          ['post', `${base}/${kind}`],
          ['get', `${base}/${kind}/anycontent00000000000`],
          ['patch', `${base}/${kind}/anycontent00000000000`],
          ['delete', `${base}/${kind}/anycontent00000000000`],
        ],
      ),
    ];
    expect(operations).toHaveLength(17);
    for (const [method, path] of operations)
      expect([method, path, (await server.as('dpt_not-a-token')[method](path).send({})).status]).toEqual([
        method,
        path,
        401,
      ]);
  });
});
