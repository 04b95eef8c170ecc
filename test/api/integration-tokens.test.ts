/**
 * Integration tokens against the real servers: what an installation token reads and writes follows
 * its integration's scopes, within its installation's organization and selected spaces and sites;
 * beyond them it is refused (404 unseen, 403 seen), and it stops at once when it expires or when its
 * installation or integration goes (401).
 */
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { hashSecret } from '../../domain/auth/tokens';
import { issueIntegrationTokens } from '../../domain/integrations/tokens';
import { ApiToken } from '../../entities/ApiToken';
import { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationInstallation as InstallationRow } from '../../entities/IntegrationInstallation';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { createOrg, OrgFixture } from '../factories';
import { Json, newCollection, newSpace } from '../support/api';
import { insertContentInstallation, insertInstallation, insertIntegration } from '../support/integration-rows';
import { useServer } from '../support/server';
import { newSite } from '../support/sites';

const server = useServer();

const OPENAPI = 'openapi: 3.1.0\ninfo: {title: Tokens, version: "1"}\npaths: {}\n';

interface Installed {
  integration: Integration;
  installation: IntegrationInstallation;
  tokens: { integration: string; installation?: string };
}

/** An integration of another organization with `scopes`, installed in `fx`'s organization. */
async function installed(
  fx: OrgFixture,
  scopes: string[],
  selection: Parameters<typeof insertInstallation>[3] = {},
  ttlSeconds = 600,
): Promise<Installed> {
  const developer = await createOrg(server.ds);
  const integration = await insertIntegration(server.ds, developer.org.id, scopes);
  const installation = await insertInstallation(server.ds, integration, fx.org.id, selection);
  const tokens = await inTransaction(server.ds, (db) =>
    issueIntegrationTokens(db, { integrationTokenTtlSeconds: ttlSeconds }, { integration, installation }),
  );
  return { integration, installation, tokens };
}

async function contentFixture() {
  const fx = await createOrg(server.ds);
  const collection = await newCollection(server, fx.admin, fx.org.id, { title: 'Docs' });
  const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Guide', parent: collection.id });
  const other = await newSpace(server, fx.admin, fx.org.id, { title: 'Internal' });
  await server
    .as(fx.admin.token)
    .post(`/v1/spaces/${space.id}/content/pages`)
    .send({ title: 'Setup', markdown: 'Install it.' })
    .expect(201);
  return { fx, collection, space, other };
}

describe('integration tokens', () => {
  it('issues a hashed, expiring integration token and installation token of the bot user', async () => {
    const { fx } = await contentFixture();
    const { integration, installation, tokens } = await installed(fx, ['space:content:read']);
    expect(tokens.installation).toBeDefined();
    const rows = await server.ds.manager.findBy(ApiToken, { integrationId: integration.id });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.userId).toBe(integration.botUserId);
      expect(row.secretHash).not.toContain(tokens.integration.slice(4));
      expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 590_000);
      expect(row.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
    }
    expect(rows.map((r) => r.installationId).sort()).toEqual([installation.id, null].sort());
    // an event without an installation gets the integration's token alone
    const alone = await inTransaction(server.ds, (db) => issueIntegrationTokens(db, server.config, { integration }));
    expect(Object.keys(alone)).toEqual(['integration']);
  });

  it('reads what space:content:read allows in its installation, and is refused the writes (403)', async () => {
    const { fx, collection, space } = await contentFixture();
    const { integration, tokens } = await installed(fx, ['space:content:read']);
    const api = server.as(tokens.installation!);
    const me = (await api.get('/v1/user').expect(200)).body;
    expect(me.id).toBe(integration.botUserId);
    const read = (await api.get(`/v1/spaces/${space.id}`).expect(200)).body;
    expect(read.permissions).toMatchObject({ view: true, edit: false, admin: false });
    const pages = (await api.get(`/v1/spaces/${space.id}/content/pages`).expect(200)).body;
    expect(pages.pages.map((p: Json) => p.title)).toContain('Setup');
    await api.get(`/v1/collections/${collection.id}`).expect(200);
    const listed = (await api.get(`/v1/orgs/${fx.org.id}/spaces`).expect(200)).body;
    expect(listed.items).toHaveLength(2);
    await api.get(`/v1/orgs/${fx.org.id}`).expect(200);

    await api.post(`/v1/spaces/${space.id}/content/pages`).send({ title: 'Nope', markdown: 'x' }).expect(403);
    await api.post(`/v1/spaces/${space.id}/change-requests`).send({ subject: 'Nope' }).expect(403);
    await api.patch(`/v1/spaces/${space.id}`).send({ title: 'Renamed' }).expect(403);
    await api.get(`/v1/orgs/${fx.org.id}/members`).expect(403);
    // nor sites nor OpenAPI specifications: no scope for them
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs site' });
    await api.get(`/v1/orgs/${fx.org.id}/sites/${site.id}`).expect(404);
    expect((await api.get(`/v1/orgs/${fx.org.id}/sites`).expect(200)).body.items).toEqual([]);
    await api.get(`/v1/orgs/${fx.org.id}/openapi`).expect(200);
    await api
      .put(`/v1/orgs/${fx.org.id}/openapi/tokens`)
      .send({ source: { text: OPENAPI } })
      .expect(403);
  });

  it('writes content with space:content:write, and still never administers', async () => {
    const { fx, space } = await contentFixture();
    const { tokens } = await installed(fx, ['space:content:read', 'space:content:write']);
    const api = server.as(tokens.installation!);
    const page = (
      await api
        .post(`/v1/spaces/${space.id}/content/pages`)
        .send({ title: 'From the integration', markdown: 'Synced.' })
        .expect(201)
    ).body;
    const read = (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content/page/${page.id}`).expect(200))
      .body;
    expect(read.title).toBe('From the integration');
    await api.post(`/v1/spaces/${space.id}/change-requests`).send({ subject: 'Sync' }).expect(201);
    await api.patch(`/v1/spaces/${space.id}`).send({ title: 'Renamed' }).expect(403);
    await api.delete(`/v1/spaces/${space.id}`).expect(403);
    await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200);
    await api.post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'New' }).expect(403);
  });

  it('reaches only the selected spaces and sites of a `selected` installation', async () => {
    const { fx, collection, space, other } = await contentFixture();
    const [site, otherSite] = [
      await newSite(server, fx.admin, fx.org.id, { title: 'Public' }),
      await newSite(server, fx.admin, fx.org.id, { title: 'Internal' }),
    ];
    const { installation, tokens } = await installed(fx, ['space:content:read', 'site:metadata:read'], {
      spaces: 'selected',
      sites: 'selected',
    });
    await insertContentInstallation(server.ds, installation, { spaceId: space.id });
    await insertContentInstallation(server.ds, installation, { siteId: site.id });
    const api = server.as(tokens.installation!);
    await api.get(`/v1/spaces/${space.id}`).expect(200);
    await api.get(`/v1/spaces/${other.id}`).expect(404);
    await api.get(`/v1/spaces/${other.id}/content/pages`).expect(404);
    await api.get(`/v1/collections/${collection.id}`).expect(404);
    expect((await api.get(`/v1/orgs/${fx.org.id}/spaces`).expect(200)).body.items.map((s: Json) => s.id)).toEqual([
      space.id,
    ]);
    await api.get(`/v1/orgs/${fx.org.id}/sites/${site.id}`).expect(200);
    await api.get(`/v1/orgs/${fx.org.id}/sites/${otherSite.id}`).expect(404);
    expect((await api.get(`/v1/orgs/${fx.org.id}/sites`).expect(200)).body.items.map((s: Json) => s.id)).toEqual([
      site.id,
    ]);
  });

  it('reads a site with site:metadata:read and sets its adaptive schema with site:adaptive:write, nothing more', async () => {
    const { fx } = await contentFixture();
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs site' });
    const base = `/v1/orgs/${fx.org.id}/sites/${site.id}`;
    const jsonSchema = {
      type: 'object',
      properties: { beta: { type: 'boolean', description: 'A beta user.' } },
      additionalProperties: false,
    };
    const reader = server.as((await installed(fx, ['site:metadata:read'])).tokens.installation!);
    expect((await reader.get(base).expect(200)).body.permissions).toMatchObject({
      view: true,
      admin: false,
      editAdaptiveSchema: false,
    });
    await reader.put(`${base}/adaptive-schema`).send({ jsonSchema }).expect(403);
    await reader.patch(base).send({ title: 'Renamed' }).expect(403);
    const writer = server.as((await installed(fx, ['site:adaptive:write'])).tokens.installation!);
    await writer.put(`${base}/adaptive-schema`).send({ jsonSchema }).expect(200);
    expect((await writer.get(`${base}/adaptive-schema`).expect(200)).body.jsonSchema).toEqual(jsonSchema);
    await writer.patch(base).send({ title: 'Renamed' }).expect(403);
    await writer.delete(base).expect(403);
    await server.as(fx.admin.token).get(base).expect(200);
  });

  it('sees nothing of another organization, whatever its scopes', async () => {
    const { fx } = await contentFixture();
    const elsewhere = await contentFixture();
    const { tokens } = await installed(fx, [
      'space:content:read',
      'space:content:write',
      'site:metadata:read',
      'openapi:write',
    ]);
    const api = server.as(tokens.installation!);
    await api.get(`/v1/orgs/${elsewhere.fx.org.id}`).expect(404);
    await api.get(`/v1/spaces/${elsewhere.space.id}`).expect(404);
    await api.post(`/v1/spaces/${elsewhere.space.id}/content/pages`).send({ title: 'x', markdown: 'x' }).expect(404);
    await api.get(`/v1/orgs/${elsewhere.fx.org.id}/spaces`).expect(404);
    await api
      .put(`/v1/orgs/${elsewhere.fx.org.id}/openapi/tokens`)
      .send({ source: { text: OPENAPI } })
      .expect(404);
    // while in its own organization openapi:write creates a specification
    await api
      .put(`/v1/orgs/${fx.org.id}/openapi/tokens`)
      .send({ source: { text: OPENAPI } })
      .expect(201);
  });

  it("the integration's own token is its identity, and reaches no organization's content", async () => {
    const { fx, space } = await contentFixture();
    const { integration, tokens } = await installed(fx, ['space:content:read']);
    const api = server.as(tokens.integration);
    expect((await api.get('/v1/user').expect(200)).body.id).toBe(integration.botUserId);
    await api.get(`/v1/spaces/${space.id}`).expect(404);
    await api.get(`/v1/orgs/${fx.org.id}`).expect(404);
    expect((await api.get('/v1/orgs').expect(200)).body.items).toEqual([]);
  });

  it('reads its integration and its installations, and administers neither', async () => {
    const { fx } = await contentFixture();
    const { integration, installation, tokens } = await installed(fx, ['space:content:read']);
    const sibling = await insertInstallation(server.ds, integration, (await createOrg(server.ds)).org.id);
    const base = `/v1/integrations/${integration.name}`;
    const own = server.as(tokens.integration);
    expect((await own.get(base).expect(200)).body.name).toBe(integration.name);
    expect((await own.get(`${base}/installations/${installation.id}`).expect(200)).body.id).toBe(installation.id);
    await own.get(`${base}/installations/${sibling.id}`).expect(200);
    const installationToken = server.as(tokens.installation!);
    await installationToken.get(`${base}/installations/${installation.id}`).expect(200);
    await installationToken.get(`${base}/installations/${sibling.id}`).expect(404);
    for (const api of [own, installationToken]) {
      await api
        .patch(`${base}/installations/${installation.id}`)
        .send({ externalIds: ['x'] })
        .expect(403);
      await api.put(`${base}/dev`).send({ tunnelUrl: 'https://tunnel.example.test' }).expect(403);
      await api.delete(base).expect(403);
      await api.get(`${base}/events`).expect(403);
    }
    await server.as(fx.admin.token).get(`${base}/installations/${installation.id}`).expect(200);
  });

  it('lists its installations and their spaces with its own token, as GitBook lets it; an installation token cannot', async () => {
    const { fx, space } = await contentFixture();
    const { integration, installation, tokens } = await installed(fx, ['space:content:read']);
    await insertContentInstallation(server.ds, installation, { spaceId: space.id });
    const base = `/v1/integrations/${integration.name}`;
    const own = server.as(tokens.integration);
    expect((await own.get(`${base}/installations`).expect(200)).body).toMatchObject({
      count: 1,
      items: [{ id: installation.id }],
    });
    expect((await own.get(`${base}/spaces`).expect(200)).body).toMatchObject({
      count: 1,
      items: [{ installation: installation.id, space: space.id }],
    });
    expect((await own.get(`${base}/sites`).expect(200)).body.count).toBe(0);
    for (const path of ['installations', 'spaces', 'sites'])
      await server.as(tokens.installation!).get(`${base}/${path}`).expect(403);
    // the installing organization's admin is not its developer: this private integration of another organization is not seen
    await server.as(fx.admin.token).get(`${base}/installations`).expect(404);
  });

  it("mints an installation token with the integration's own token only (createIntegrationInstallationToken)", async () => {
    const { fx, space } = await contentFixture();
    const { integration, installation, tokens } = await installed(fx, ['space:content:read']);
    const path = `/v1/integrations/${integration.name}/installations/${installation.id}/tokens`;
    const minted = (await server.as(tokens.integration).post(path).expect(200)).body;
    expect(Object.keys(minted)).toEqual(['token']);
    await server.as(minted.token).get(`/v1/spaces/${space.id}`).expect(200);
    const row = await server.ds.manager.findOneByOrFail(ApiToken, {
      label: `installation:${installation.id}`,
      secretHash: hashSecret(minted.token),
    });
    expect(row.installationId).toBe(installation.id);
    expect(row.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + server.config.integrationTokenTtlSeconds * 1000);
    // not an installation token, not a user (even the installing organization's admin), not another integration
    await server.as(tokens.installation!).post(path).expect(403);
    await server.as(fx.admin.token).post(path).expect(403);
    const stranger = await installed(fx, ['space:content:read']);
    await server.as(stranger.tokens.integration).post(path).expect(404);
    await server
      .as(tokens.integration)
      .post(`/v1/integrations/${integration.name}/installations/${stranger.installation.id}/tokens`)
      .expect(404);
    await server
      .as(tokens.integration)
      .post(`/v1/integrations/${integration.name}/installations/nosuchinstallation/tokens`)
      .expect(404);
  });

  it('takes no action on an account: no tokens, no organizations, no e-mail domain (403)', async () => {
    const { fx } = await contentFixture();
    const { tokens } = await installed(fx, ['space:content:read']);
    for (const token of [tokens.integration, tokens.installation!]) {
      await server.as(token).post('/v1/user/tokens').send({ label: 'escape' }).expect(403);
      await server.as(token).post('/v1/orgs').send({ title: 'Bot org' }).expect(403);
      await server.as(token).post(`/v1/orgs/${fx.org.id}/ping`).expect(403);
      await server.as(token).get('/v1/email-domains/example.test/orgs').expect(403);
    }
  });

  it('stops at once when it expires, or when its installation or its integration goes (401), and follows a change of scopes', async () => {
    const { fx, space } = await contentFixture();
    const expiring = await installed(fx, ['space:content:read'], {}, 1);
    await server.as(expiring.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await server.as(expiring.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(401);
    await server.as(expiring.tokens.integration).get('/v1/user').expect(401);

    const uninstalled = await installed(fx, ['space:content:read']);
    await server.as(uninstalled.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(200);
    await inTransaction(server.ds, (db) => db.delete(InstallationRow, { id: uninstalled.installation.id }));
    await server.as(uninstalled.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(401);
    await server.as(uninstalled.tokens.integration).get('/v1/user').expect(200);

    // a republish that drops a scope holds from the next request
    const narrowed = await installed(fx, ['space:content:read']);
    await server.as(narrowed.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(200);
    await inTransaction(server.ds, (db) =>
      db.update(Integration, { id: narrowed.integration.id }, { scopes: ['site:metadata:read'] }),
    );
    await server.as(narrowed.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(404);

    const unpublished = await installed(fx, ['space:content:read']);
    await inTransaction(server.ds, (db) =>
      db.update(Integration, { id: unpublished.integration.id }, { deletedAt: new Date() }),
    );
    await server.as(unpublished.tokens.installation!).get(`/v1/spaces/${space.id}`).expect(401);
    await server.as(unpublished.tokens.integration).get('/v1/user').expect(401);
  });

  it("names the acting integration on the request log's lines", async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const app = createApp({
      ds: server.ds,
      config: server.config,
      temporal: server.temporal,
      blobs: createBlobStore(server.config),
      logger,
    });
    const { fx, space } = await contentFixture();
    const { integration, tokens } = await installed(fx, ['space:content:read']);
    await request(app)
      .get(`/v1/spaces/${space.id}`)
      .set('Authorization', `Bearer ${tokens.installation}`)
      .set('X-Request-Id', 'req-integration')
      .expect(200);
    await request(app)
      .get(`/v1/spaces/${space.id}`)
      .set('Authorization', `Bearer ${fx.admin.token}`)
      .set('X-Request-Id', 'req-user')
      .expect(200);
    const byId = Object.fromEntries(
      lines
        .map((l) => JSON.parse(l))
        .filter((l) => l.req)
        .map((l) => [l.req.id, l]),
    );
    expect(byId['req-integration']).toMatchObject({
      operationId: 'getSpace',
      organizationId: fx.org.id,
      integrationId: integration.id,
    });
    expect(byId['req-user']).not.toHaveProperty('integrationId');
  });

  it('removes its expired rows when it issues new ones', async () => {
    const { fx } = await contentFixture();
    const { integration, installation } = await installed(fx, ['space:content:read'], {}, 1);
    await server.ds.manager.update(
      ApiToken,
      { integrationId: integration.id },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    await inTransaction(server.ds, (db) => issueIntegrationTokens(db, server.config, { integration, installation }));
    const rows = await server.ds.manager.findBy(ApiToken, { integrationId: integration.id });
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.expiresAt!.getTime() > Date.now())).toBe(true);
  });
});
