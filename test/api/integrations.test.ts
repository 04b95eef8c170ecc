/**
 * Publishing and the catalogue over the real API, database and blob store: publish and
 * republish, every body rule, who may publish, get and list (with each filter), unpublish with its
 * installation_deleted events and tombstone, and the anonymous script and asset endpoints.
 */
import { PNG } from 'pngjs';
import request from 'supertest';
import { installIntegration } from '../../domain/integrations/installations';
import { decryptSecrets } from '../../domain/integrations/secrets';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { Member } from '../../entities/Member';
import { User } from '../../entities/User';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg, createUser, OrgFixture, unique } from '../factories';
import { Json, newSpace } from '../support/api';
import { heldBack } from '../support/held-back';
import { useServer } from '../support/server';
import { newSite, sitesPath } from '../support/sites';

const server = useServer();

/** A PNG of width x height; `stored` leaves its pixels uncompressed (4 bytes each), to reach a size fast. */
function png(width = 2, height = 2, stored = false): Buffer {
  const image = new PNG({ width, height });
  image.data = Buffer.alloc(width * height * 4, 0x80);
  return PNG.sync.write(image, stored ? { deflateLevel: 0, filterType: 0 } : {});
}
const b64 = (bytes: Buffer) => bytes.toString('base64');

const SCRIPT = 'export default { fetch: () => new Response("ok") };\n';

function body(org: { id: string }, extra: Json = {}): Json {
  return {
    organization: org.id,
    title: 'My integration',
    description: 'Does things',
    script: SCRIPT,
    scopes: ['space:content:read'],
    ...extra,
  };
}

const path = (name: string) => `/v1/integrations/${name}`;

async function publish(fx: OrgFixture, name: string, extra: Json = {}, status = 200) {
  return (await server.as(fx.admin.token).post(path(name)).send(body(fx.org, extra)).expect(status)).body;
}

describe('publish', () => {
  it('creates (version 1) and republishes (version 2): every field stored and presented, secrets encrypted and never returned', async () => {
    const fx = await createOrg(server.ds);
    const name = unique('integ-');
    const icon = png(16, 16);
    const preview = png(32, 20);
    const created = await publish(fx, name, {
      runtime: 'v2',
      icon: b64(icon),
      summary: '# Summary\n\nLong form.',
      previewImages: [b64(preview)],
      visibility: 'unlisted',
      target: 'space',
      scopes: ['space:content:read', 'site:script:inject'],
      categories: ['analytics', 'content'],
      blocks: [
        {
          id: 'card',
          title: 'Card',
          description: 'A card',
          urlUnfurl: ['https://www.figma.com/file/**'],
          markdown: { codeblock: 'card', body: 'text' },
        },
      ],
      contentSources: [{ id: 'source', title: 'Source', configuration: { componentId: 'configure' } }],
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      configurations: {
        account: {
          properties: {
            token: { type: 'string', title: 'Token', description: 'API token' },
            mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
          },
          required: ['token'],
        },
        space: { componentId: 'space-config' },
      },
      secrets: { API_KEY: 'sekret-value' },
      contentSecurityPolicy: { 'script-src': "'self' https://cdn.example.com", 'img-src': '*' },
    });
    const base = `${server.config.publicBaseUrl}/v1/integrations/${name}`;
    expect(created).toEqual({
      object: 'integration',
      name,
      version: 1,
      runtime: 'v2',
      title: 'My integration',
      description: 'Does things',
      summary: '# Summary\n\nLong form.',
      previewImages: [`${base}/assets/preview-0.png?v=1`],
      target: 'space',
      verified: false,
      visibility: 'unlisted',
      scopes: ['space:content:read', 'site:script:inject'],
      categories: ['analytics', 'content'],
      blocks: [
        {
          id: 'card',
          title: 'Card',
          description: 'A card',
          urlUnfurl: ['https://www.figma.com/file/**'],
          markdown: { codeblock: 'card', body: 'text' },
        },
      ],
      contentSources: [{ id: 'source', title: 'Source', configuration: { componentId: 'configure' } }],
      configurations: {
        account: {
          properties: {
            token: { type: 'string', title: 'Token', description: 'API token' },
            mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
          },
          required: ['token'],
        },
        space: { componentId: 'space-config' },
      },
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      owner: expect.objectContaining({
        object: 'organization',
        id: fx.org.id,
        permissions: expect.objectContaining({ admin: true }),
      }),
      urls: {
        location: base,
        icon: `${base}/assets/icon.png?v=1`,
        app: `${server.config.appBaseUrl}/integrations/${name}`,
        assets: `${base}/assets`,
        publicEndpoint: `${base}/script.js`,
        publicContentEndpoint: `${base}/script.js`,
      },
      permissions: { admin: true },
      contentSecurityPolicy: "img-src *; script-src 'self' https://cdn.example.com",
    });
    expect(JSON.stringify(created)).not.toContain('sekret');

    const row = await server.ds.manager.findOneByOrFail(Integration, { name });
    expect(row.secretsCiphertext).not.toContain('sekret');
    expect(decryptSecrets(server.config, row)).toEqual({ API_KEY: 'sekret-value' });
    // the bot user exists, is named after the integration and belongs to no organization
    expect((await server.ds.manager.findOneByOrFail(User, { id: row.botUserId })).displayName).toBe('My integration');
    expect(await server.ds.manager.countBy(Member, { userId: row.botUserId })).toBe(0);

    // the icon and the preview are served as published
    const served = await server
      .as('')
      .get(`/v1/integrations/${name}/assets/icon.png`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.body, icon)).toBe(0);
    expect(
      Buffer.compare(
        (
          await server
            .as('')
            .get(`/v1/integrations/${name}/assets/preview-0.png`)
            .buffer(true)
            .parse(binary)
            .expect(200)
        ).body,
        preview,
      ),
    ).toBe(0);

    // a publish states the whole integration: what it leaves out takes its default
    const republished = await publish(fx, name, { title: 'Renamed', script: 'export default {};\n' });
    expect(republished).toMatchObject({
      version: 2,
      runtime: 'v1',
      title: 'Renamed',
      visibility: 'private',
      target: 'all',
      categories: [],
      blocks: [],
      previewImages: [],
      configurations: {},
    });
    expect(republished).not.toHaveProperty('contentSecurityPolicy');
    expect(republished.urls).not.toHaveProperty('icon');
    const again = await server.ds.manager.findOneByOrFail(Integration, { name });
    expect(again.id).toBe(row.id);
    expect(again.secretsCiphertext).toBeNull();
    expect((await server.ds.manager.findOneByOrFail(User, { id: row.botUserId })).displayName).toBe('Renamed');
    // the previous version's blobs are gone, the new script is served (private now: to the organization's members)
    await server.as(fx.admin.token).get(`/v1/integrations/${name}/assets/icon.png`).expect(404);
    expect((await server.as(fx.admin.token).get(`/v1/integrations/${name}/script.js`).expect(200)).text).toBe(
      'export default {};\n',
    );
    expect((await publish(fx, name)).version).toBe(3);
  });

  it('takes the organization by hostname; 404 for an unknown or unseen organization, 403 for a member who is not an admin, 401 without a token', async () => {
    const fx = await createOrg(server.ds);
    const hostname = unique('h').toLowerCase();
    await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ hostname }).expect(200);
    const name = unique('integ-');
    expect((await publish(fx, name, { organization: hostname })).owner.id).toBe(fx.org.id);

    const unknown = await server
      .as(fx.admin.token)
      .post(path(unique('integ-')))
      .send(body({ id: 'nope-nope' }))
      .expect(404);
    expect(unknown.body.error.message).toBe('organization not found');
    const stranger = await createUser(server.ds);
    await server
      .as(stranger.token)
      .post(path(unique('integ-')))
      .send(body(fx.org))
      .expect(404);
    const editor = await addMember(server.ds, fx.org, 'create');
    const refused = await server.as(editor.token).post(path(name)).send(body(fx.org)).expect(403);
    expect(refused.body.error.message).toMatch(/admin/);
    await request(server.app).post(path(name)).send(body(fx.org)).expect(401);
    expect((await server.ds.manager.findOneByOrFail(Integration, { name })).version).toBe(1);
  });

  it('refuses a republish by another organization (403), even by one of its admins', async () => {
    const a = await createOrg(server.ds);
    const b = await createOrg(server.ds);
    const name = unique('integ-');
    await publish(a, name);
    const res = await server.as(b.admin.token).post(path(name)).send(body(b.org)).expect(403);
    expect(res.body.error.message).toBe(`integrationName: "${name}" is published by another organization`);
    // an admin of both still cannot move it to the other organization
    await server.ds.manager.insert(Member, {
      organizationId: b.org.id,
      userId: a.admin.user.id,
      role: 'admin',
      disabled: false,
      sso: false,
      joinedAt: new Date(),
      lastSeenAt: null,
    });
    await server.as(a.admin.token).post(path(name)).send(body(b.org)).expect(403);
    expect((await server.ds.manager.findOneByOrFail(Integration, { name })).ownerOrganizationId).toBe(a.org.id);
  });

  it('serializes concurrent publishes: of a new name, one creates it and the others update it or get 409; republishes each get their own version', async () => {
    const fx = await createOrg(server.ds);
    const name = unique('integ-');
    const firsts = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        server
          .as(fx.admin.token)
          .post(path(name))
          .send(body(fx.org, { title: `Racer ${i}` })),
      ),
    );
    expect(firsts.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const winners = firsts.filter((r) => r.status === 200);
    expect(winners.map((r) => r.body.version).sort()).toEqual(winners.map((_r, i) => i + 1));
    expect(await server.ds.manager.countBy(Integration, { name })).toBe(1);

    const start = (await server.ds.manager.findOneByOrFail(Integration, { name })).version;
    const republished = await Promise.all(
      [1, 2, 3].map(() => server.as(fx.admin.token).post(path(name)).send(body(fx.org)).expect(200)),
    );
    expect(republished.map((r) => r.body.version).sort()).toEqual([start + 1, start + 2, start + 3]);
    const row = await server.ds.manager.findOneByOrFail(Integration, { name });
    expect(row.version).toBe(start + 3);
    // one bot user, whatever the races
    expect(await server.ds.manager.countBy(User, { email: `${row.id}@integrations.invalid` })).toBe(1);
    expect((await server.as(fx.admin.token).get(`/v1/integrations/${name}/script.js`).expect(200)).text).toBe(SCRIPT);
  });

  it('answers every malformed value of every field with a 400, never a 500', async () => {
    const fx = await createOrg(server.ds);
    const values = [
      null,
      true,
      0,
      -1,
      1.5,
      '',
      ' ',
      'x',
      '\u0000',
      'é'.repeat(300),
      [],
      [null],
      [{}],
      {},
      { a: 1 },
      { componentId: 3 },
    ];
    const fields = [
      'runtime',
      'icon',
      'title',
      'description',
      'summary',
      'previewImages',
      'visibility',
      'target',
      'scopes',
      'categories',
      'blocks',
      'contentSources',
      'externalLinks',
      'configurations',
      'script',
      'organization',
      'secrets',
      'contentSecurityPolicy',
    ];
    const statuses = new Set<number>();
    for (const field of fields) {
      for (const value of values) {
        const res = await server
          .as(fx.admin.token)
          .post(path(unique('integ-')))
          .send(body(fx.org, { [field]: value }));
        statuses.add(res.status);
        if (res.status >= 500)
          throw new Error(`${field}=${JSON.stringify(value)}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect([...statuses].every((s) => s === 200 || s === 400 || s === 404)).toBe(true);
  });

  describe('body rules (400 naming the field and the rule)', () => {
    let fx: OrgFixture;
    beforeAll(async () => {
      fx = await createOrg(server.ds);
    });
    const big = (bytes: number) => png(Math.ceil(Math.sqrt(bytes / 4)) + 8, Math.ceil(Math.sqrt(bytes / 4)) + 8, true);

    const cases: Array<[string, () => Json, string]> = [
      ['title too short', () => ({ title: 'A' }), 'title: must be at least 2 characters'],
      ['title too long', () => ({ title: 'x'.repeat(31) }), 'title: must be at most 30 characters'],
      ['description too long', () => ({ description: 'x'.repeat(101) }), 'description: must be at most 100 characters'],
      ['description missing', () => ({ description: undefined }), 'description: is required'],
      ['script missing', () => ({ script: undefined }), 'script: is required'],
      ['scopes missing', () => ({ scopes: undefined }), 'scopes: is required'],
      ['summary too long', () => ({ summary: 'x'.repeat(2049) }), 'summary: must be at most 2048 characters'],
      ['unknown scope', () => ({ scopes: ['space:everything'] }), 'scopes.0: must be one of'],
      ['repeated scope', () => ({ scopes: ['openapi:read', 'openapi:read'] }), 'scopes: must not repeat a value'],
      ['unknown category', () => ({ categories: ['games'] }), 'categories.0: must be one of'],
      ['unknown target', () => ({ target: 'page' }), 'target: must be one of all, site, space, organization'],
      ['unknown visibility', () => ({ visibility: 'secret' }), 'visibility: must be one of public, private, unlisted'],
      ['unknown runtime', () => ({ runtime: 'v3' }), 'runtime: must be one of v1, v2'],
      [
        'six external links',
        () => ({ externalLinks: Array.from({ length: 6 }, (_v, i) => ({ url: `https://e.com/${i}`, label: 'L' })) }),
        'externalLinks: must have at most 5 items',
      ],
      [
        'a javascript: link',
        () => ({ externalLinks: [{ url: 'javascript:alert(1)', label: 'L' }] }),
        'externalLinks.0.url:',
      ],
      ['an unknown field', () => ({ price: 3 }), 'price: unknown field'],
      [
        'an unknown block field',
        () => ({ blocks: [{ id: 'b', title: 'Block', color: 'red' }] }),
        'blocks.0.color: unknown field',
      ],
      [
        'a short block title',
        () => ({ blocks: [{ id: 'b', title: 'B' }] }),
        'blocks.0.title: must be at least 2 characters',
      ],
      [
        'repeated block ids',
        () => ({
          blocks: [
            { id: 'b', title: 'Block' },
            { id: 'b', title: 'Block' },
          ],
        }),
        'blocks.1.id: must be unique',
      ],
      [
        'a content source without configuration',
        () => ({ contentSources: [{ id: 's', title: 'Source' }] }),
        'contentSources.0.configuration: is required',
      ],
      [
        "a block's icon that is no https URL",
        () => ({ blocks: [{ id: 'b', title: 'Block', icon: 'javascript:alert(1)' }] }),
        'blocks.0.icon: must be an https URL',
      ],
      [
        'an external link that is no http(s) URL',
        () => ({ externalLinks: [{ url: 'javascript:alert(1)//https://x', label: 'Docs' }] }),
        'externalLinks.0.url: must be an http or https URL',
      ],
      ['an icon that is not base64', () => ({ icon: 'not base64!' }), 'icon: must be base64'],
      [
        'an icon that is not a PNG',
        () => ({ icon: b64(Buffer.from('GIF89a not really')) }),
        'icon: must be a PNG image',
      ],
      ['an icon over 250 KB', () => ({ icon: b64(big(260 * 1024)) }), 'icon: must be at most 250 KB'],
      [
        'four preview images',
        () => ({ previewImages: [1, 2, 3, 4].map(() => b64(png())) }),
        'previewImages: must have at most 3 items',
      ],
      [
        'a preview that is not a PNG',
        () => ({ previewImages: [b64(png()), b64(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]))] }),
        'previewImages.1: must be a PNG image',
      ],
      [
        'a preview over 1 MB',
        () => ({ previewImages: [b64(big(1100 * 1024))] }),
        'previewImages.0: must be at most 1 MB',
      ],
      [
        '21 secrets',
        () => ({ secrets: Object.fromEntries(Array.from({ length: 21 }, (_v, i) => [`K${i}`, 'v'])) }),
        'secrets: must have at most 20 entries',
      ],
      ['a secret that is not a string', () => ({ secrets: { K: 1 } }), 'secrets.K: must be a string, not number'],
      [
        'a policy with a line break',
        () => ({ contentSecurityPolicy: "default-src 'self'\r\nX-Injected: 1" }),
        'contentSecurityPolicy: must be printable ASCII',
      ],
      [
        'a policy directive with ";"',
        () => ({ contentSecurityPolicy: { 'img-src': "*; script-src 'unsafe-eval'" } }),
        'contentSecurityPolicy.img-src: must not contain ";"',
      ],
      [
        'an unknown policy directive',
        () => ({ contentSecurityPolicy: { 'magic-src': '*' } }),
        'contentSecurityPolicy.magic-src: unknown field',
      ],
      [
        'an unknown configuration level',
        () => ({ configurations: { user: { properties: {} } } }),
        'configurations.user: unknown field',
      ],
      [
        'a configuration property of an unknown type',
        () => ({ configurations: { account: { properties: { at: { type: 'date' } } } } }),
        'configurations.account.properties.at.type: must be one of string, number, boolean, button',
      ],
      [
        'a configuration without properties',
        () => ({ configurations: { space: { required: [] } } }),
        'configurations.space.properties: is required',
      ],
      [
        'a configuration default of the wrong type',
        () => ({ configurations: { account: { properties: { n: { type: 'number', default: 'one' } } } } }),
        'configurations.account.properties.n.default: must be number',
      ],
      [
        'a button without its callback',
        () => ({ configurations: { account: { properties: { go: { type: 'button', button_text: 'Go' } } } } }),
        'configurations.account.properties.go.callback_url: is required',
      ],
      [
        'an enum on a boolean',
        () => ({ configurations: { site: { properties: { on: { type: 'boolean', enum: ['x'] } } } } }),
        'configurations.site.properties.on.enum: is not allowed for this type',
      ],
      [
        'a required name that is not a property',
        () => ({ configurations: { account: { properties: { a: { type: 'string' } }, required: ['b'] } } }),
        'configurations.account.required: names "b", which is not one of its properties',
      ],
      [
        'a default outside the enum',
        () => ({ configurations: { account: { properties: { m: { type: 'string', enum: ['a'], default: 'z' } } } } }),
        'configurations.account.properties.m.default: must be one of its enum values',
      ],
      [
        'an unknown key of a configuration property',
        () => ({ configurations: { account: { properties: { a: { type: 'string', format: 'email' } } } } }),
        'configurations.account.properties.a.format: is not allowed here',
      ],
    ];
    it.each(cases)('refuses %s', async (_what, extra, message) => {
      const name = unique('integ-');
      const res = await server.as(fx.admin.token).post(path(name)).send(body(fx.org, extra())).expect(400);
      expect(res.body.error.message.slice(0, message.length)).toBe(message);
      expect(await server.ds.manager.countBy(Integration, { name })).toBe(0);
    });

    it('refuses a bad name in the path (400 on publish, 404 elsewhere), and a body that is not an object', async () => {
      expect(
        (await server.as(fx.admin.token).post(path('has space')).send(body(fx.org)).expect(400)).body.error.message,
      ).toBe('integrationName: must be letters, digits, "-", "_" and "."');
      expect(
        (
          await server
            .as(fx.admin.token)
            .post(path('x'.repeat(101)))
            .send(body(fx.org))
            .expect(400)
        ).body.error.message,
      ).toBe('integrationName: must be at most 100 characters');
      expect(
        (await server.as(fx.admin.token).post(path('..')).send(body(fx.org)).expect(400)).body.error.message,
      ).toMatch(/^integrationName: /);
      await server.as(fx.admin.token).get(path('has space')).expect(404);
      await server
        .as(fx.admin.token)
        .delete(path('x'.repeat(101)))
        .expect(404);
      for (const bad of [null, [], 'text', 3]) {
        const res = await server
          .as(fx.admin.token)
          .post(path(unique('integ-')))
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(bad));
        expect(res.status).toBe(400);
      }
      await server
        .as(fx.admin.token)
        .post(path(unique('integ-')))
        .set('Content-Type', 'text/plain')
        .send('title=x')
        .expect(415);
    });

    it('takes a publish of several MB (previews and script inline), beyond the ordinary body limit', async () => {
      const previews = [1, 2, 3].map(() => b64(big(900 * 1024)));
      const name = unique('integ-');
      const res = await publish(fx, name, { previewImages: previews, script: `// ${'x'.repeat(1024 * 1024)}\n` });
      expect(res.previewImages).toHaveLength(3);
    });

    it('writes nothing when a rule fails after others passed (a bad preview after a good icon)', async () => {
      const name = unique('integ-');
      await publish(fx, name);
      await server
        .as(fx.admin.token)
        .post(path(name))
        .send(body(fx.org, { title: 'Changed', icon: b64(png()), previewImages: ['AAAA'] }))
        .expect(400);
      const row = await server.ds.manager.findOneByOrFail(Integration, { name });
      expect([row.version, row.title, row.iconKey]).toEqual([1, 'My integration', null]);
    });
  });
});

/** supertest's parser for a binary body. */
const binary = ((res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}) as unknown as Parameters<request.Test['parse']>[0];

describe('get and list', () => {
  it('reads a private integration only as a member of its organization (404 otherwise), an unlisted one by anyone, by name only', async () => {
    const fx = await createOrg(server.ds);
    const privateName = unique('integ-');
    const unlistedName = unique('integ-');
    const publicName = unique('integ-');
    await publish(fx, privateName);
    await publish(fx, unlistedName, { visibility: 'unlisted' });
    await publish(fx, publicName, { visibility: 'public' });
    const reader = await addMember(server.ds, fx.org, 'read');
    const stranger = await createUser(server.ds);

    const asReader = (await server.as(reader.token).get(path(privateName)).expect(200)).body;
    expect(asReader.permissions).toEqual({ admin: false });
    expect(asReader.owner.permissions.admin).toBe(false);
    const hidden = await server.as(stranger.token).get(path(privateName)).expect(404);
    expect(hidden.body.error.message).toBe('integration not found');
    await server
      .as(stranger.token)
      .get(path(unique('integ-')))
      .expect(404);
    expect((await server.as(stranger.token).get(path(unlistedName)).expect(200)).body.owner.permissions.view).toBe(
      false,
    );
    await request(server.app).get(path(publicName)).expect(401);
    await request(server.app).get('/v1/integrations').expect(401);

    const names = async (token: string) =>
      (await server.as(token).get('/v1/integrations').query({ owner: fx.org.id }).expect(200)).body.items.map(
        (i: Json) => i.name,
      );
    expect(await names(reader.token)).toEqual([privateName, publicName].sort());
    expect(await names(stranger.token)).toEqual([publicName]);
  });

  it('filters by search, category, blockDomain, blocks, contentSources, owner, scope and target, and pages', async () => {
    const fx = await createOrg(server.ds);
    const prefix = unique('cat-');
    const publishAs = (suffix: string, extra: Json) =>
      publish(fx, `${prefix}-${suffix}`, { visibility: 'public', ...extra });
    await publishAs('figma', {
      title: 'Figma embeds',
      categories: ['content'],
      scopes: ['space:content:read'],
      target: 'space',
      blocks: [{ id: 'f', title: 'Figma', urlUnfurl: ['https://www.figma.com/file/**'] }],
    });
    await publishAs('github', {
      title: 'GitHub files',
      categories: ['gitsync', 'content'],
      scopes: ['space:git:sync'],
      target: 'all',
      blocks: [{ id: 'g', title: 'GitHub', urlUnfurl: ['https://github.com/**'] }],
    });
    await publishAs('stats', {
      title: 'Stats',
      categories: ['analytics'],
      scopes: ['site:views:read'],
      target: 'site',
      contentSources: [{ id: 's', title: 'Source', configuration: { componentId: 'c' } }],
    });
    const list = async (query: Json) =>
      (
        await server
          .as(fx.admin.token)
          .get('/v1/integrations')
          .query({ owner: fx.org.id, ...query })
          .expect(200)
      ).body;
    const names = async (query: Json) => (await list(query)).items.map((i: Json) => i.name.slice(prefix.length + 1));

    expect(await names({})).toEqual(['figma', 'github', 'stats']);
    expect(await names({ search: 'GITHUB' })).toEqual(['github']);
    expect(await names({ search: 'embeds' })).toEqual(['figma']);
    expect(await names({ search: '%' })).toEqual([]);
    expect(await names({ category: 'content' })).toEqual(['figma', 'github']);
    expect(await names({ category: 'analytics' })).toEqual(['stats']);
    expect(await names({ blockDomain: 'figma.com' })).toEqual(['figma']);
    expect(await names({ blockDomain: 'www.figma.com' })).toEqual(['figma']);
    expect(await names({ blockDomain: 'github.com' })).toEqual(['github']);
    expect(await names({ blockDomain: 'hub.com' })).toEqual([]);
    expect(await names({ blocks: 'true' })).toEqual(['figma', 'github']);
    expect(await names({ blocks: 'false' })).toEqual(['stats']);
    expect(await names({ contentSources: 'true' })).toEqual(['stats']);
    expect(await names({ contentSources: 'false' })).toEqual(['figma', 'github']);
    expect(await names({ scope: 'space:git:sync' })).toEqual(['github']);
    expect(await names({ target: 'space' })).toEqual(['figma', 'github']);
    expect(await names({ target: 'site' })).toEqual(['github', 'stats']);
    expect(await names({ target: 'all' })).toEqual(['github']);
    expect(await names({ owner: 'someone-else' })).toEqual([]);

    const first = await list({ limit: 2 });
    expect(first.count).toBe(3);
    expect(first.items).toHaveLength(2);
    const second = await list({ limit: 2, page: first.next.page });
    expect(second.items.map((i: Json) => i.name)).toEqual([`${prefix}-stats`]);
    expect(second.next).toBeUndefined();
    // a cursor belongs to its filters
    await server
      .as(fx.admin.token)
      .get('/v1/integrations')
      .query({ owner: fx.org.id, category: 'content', page: first.next.page })
      .expect(400);

    for (const [query, message] of [
      [{ category: 'games' }, 'category: must be one of'],
      [{ scope: 'x' }, 'scope: must be one of'],
      [{ target: 'page' }, 'target: must be one of'],
      [{ blocks: 'yes' }, 'blocks: must be one of true, false'],
      [{ blockDomain: 'a/b' }, 'blockDomain: must be letters'],
      [{ limit: '5000' }, 'limit: must be at most 1000'],
    ] as Array<[Json, string]>) {
      const res = await server.as(fx.admin.token).get('/v1/integrations').query(query).expect(400);
      expect(res.body.error.message.slice(0, message.length)).toBe(message);
    }
  });
});

describe('unpublish', () => {
  it('uninstalls everywhere (an installation_deleted event for each), leaves a tombstone no read sees, and answers 204 again', async () => {
    const fx = await createOrg(server.ds);
    const other = await createOrg(server.ds);
    const name = unique('integ-');
    await publish(fx, name, { visibility: 'unlisted' });
    const integration = await server.ds.manager.findOneByOrFail(Integration, { name });
    for (const org of [fx.org, other.org])
      await inTransaction(heldBack(server.ds), (db) => installIntegration(db, integration, org, fx.admin.user.id));

    // a member who is not an admin sees it but may not unpublish it; another organization's admin is refused too
    const reader = await addMember(server.ds, fx.org, 'read');
    await server.as(reader.token).delete(path(name)).expect(403);
    await server.as(other.admin.token).delete(path(name)).expect(403);
    await request(server.app).delete(path(name)).expect(401);

    await server.as(fx.admin.token).delete(path(name)).expect(204);
    const tombstone = await server.ds.manager.findOneByOrFail(Integration, { name });
    expect(tombstone.deletedAt).toBeInstanceOf(Date);
    expect(await server.ds.manager.countBy(IntegrationInstallation, { integrationId: integration.id })).toBe(0);
    const events = await server.ds.manager.findBy(IntegrationEvent, {
      integrationId: integration.id,
      type: 'installation_deleted',
    });
    expect(events.map((e) => e.organizationId).sort()).toEqual([fx.org.id, other.org.id].sort());

    await server.as(fx.admin.token).get(path(name)).expect(404);
    expect(
      (await server.as(fx.admin.token).get('/v1/integrations').query({ owner: fx.org.id }).expect(200)).body.items,
    ).toEqual([]);
    await server.as('').get(`/v1/integrations/${name}/script.js`).expect(404);
    await server.as(fx.admin.token).delete(path(name)).expect(204);
    await server
      .as(fx.admin.token)
      .delete(path(unique('integ-')))
      .expect(204);
    // the name stays taken until the tombstone is removed
    expect(
      (await server.as(fx.admin.token).post(path(name)).send(body(fx.org)).expect(409)).body.error.message,
    ).toMatch(/is being unpublished/);
  });

  it("answers 204 for another organization's private integration and leaves it alone", async () => {
    const fx = await createOrg(server.ds);
    const stranger = await createOrg(server.ds);
    const name = unique('integ-');
    await publish(fx, name);
    await server.as(stranger.admin.token).delete(path(name)).expect(204);
    expect((await server.ds.manager.findOneByOrFail(Integration, { name })).deletedAt).toBeNull();
  });
});

describe('the script and the assets', () => {
  it("serves a public integration's script to anyone at urls.publicEndpoint with its Content-Security-Policy; 404 for what does not exist", async () => {
    const fx = await createOrg(server.ds);
    const name = unique('integ-');
    const published = await publish(fx, name, {
      visibility: 'public',
      contentSecurityPolicy: "default-src 'self'; script-src https://cdn.example.com",
    });
    const res = await server.as('').get(new URL(published.urls.publicEndpoint).pathname).expect(200);
    expect(res.text).toBe(SCRIPT);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe("default-src 'self'; script-src https://cdn.example.com");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=60');

    await server
      .as('')
      .get(`/v1/integrations/${unique('integ-')}/script.js`)
      .expect(404);
    await server.as('').get(`/v1/integrations/${name}/assets/icon.png`).expect(404);
    await server.as('').get(`/v1/integrations/${name}/assets/preview-0.png`).expect(404);
    await server.as('').get(`/v1/integrations/${name}/assets/secrets.json`).expect(404);
  });
});

describe("a private integration's script and images", () => {
  const paths = (name: string) => [
    `/v1/integrations/${name}/script.js`,
    `/v1/integrations/${name}/assets/icon.png`,
    `/v1/integrations/${name}/assets/preview-0.png`,
  ];
  /** Each path's status and 404 message for this caller (no Authorization header when `token` is null). */
  async function answers(name: string, token: string | null): Promise<Array<[number, string | undefined]>> {
    const out: Array<[number, string | undefined]> = [];
    for (const p of paths(name)) {
      const res = await (token === null ? request(server.app).get(p) : server.as(token).get(p));
      out.push([res.status, res.body?.error?.message]);
    }
    return out;
  }
  const served: Array<[number, string | undefined]> = [
    [200, undefined],
    [200, undefined],
    [200, undefined],
  ];
  const gone: Array<[number, string | undefined]> = [
    [404, 'integration not found'],
    [404, 'integration not found'],
    [404, 'integration not found'],
  ];

  it("are served to its organization's members (any role, guests included), to anyone while it is installed on a published site, and to no one else: the 404 of a name that does not exist", async () => {
    const fx = await createOrg(server.ds);
    const name = unique('integ-');
    await publish(fx, name, {
      icon: b64(png()),
      previewImages: [b64(png())],
      secrets: { API_KEY: 'inlined' },
      scopes: ['site:script:inject'],
    });
    const nameless = await answers(unique('integ-'), null);
    expect(nameless).toEqual(gone);

    // not installed anywhere: anonymous callers and other organizations' members get the 404 of no such name
    expect(await answers(name, null)).toEqual(gone);
    expect(await answers(name, '')).toEqual(gone);
    const outsider = await createOrg(server.ds);
    expect(await answers(name, outsider.admin.token)).toEqual(gone);
    // the organization's members, whatever their role, get them, never kept by a shared cache
    const reader = await addMember(server.ds, fx.org, 'read');
    const guest = await addMember(server.ds, fx.org, null);
    for (const member of [fx.admin, reader, guest]) expect(await answers(name, member.token)).toEqual(served);
    const script = await server.as(guest.token).get(paths(name)[0]).expect(200);
    expect(script.text).toBe(SCRIPT);
    expect(script.headers['cache-control']).toBe('private, max-age=60');
    // a token that is presented is checked: an unknown one is a 401, not an anonymous request
    await server.as('nope').get(paths(name)[0]).expect(401);

    // installed on a site: served to anyone only while that site is published
    const integration = await server.ds.manager.findOneByOrFail(Integration, { name });
    const { installation } = await inTransaction(heldBack(server.ds), (db) =>
      installIntegration(db, integration, fx.org, fx.admin.user.id),
    );
    const space = await newSpace(server, fx.admin, fx.org.id);
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs', spaces: [space.id] });
    const siteBase = `${sitesPath(fx.org.id)}/${site.id}`;
    await server
      .as(fx.admin.token)
      .post(`/v1/integrations/${name}/installations/${installation.id}/sites`)
      .send({ siteId: site.id })
      .expect(201);
    expect(await answers(name, null)).toEqual(gone);
    await server.as(fx.admin.token).post(`${siteBase}/publish`).expect(200);
    expect(await answers(name, null)).toEqual(served);
    expect(await answers(name, outsider.admin.token)).toEqual(served);
    await server.as(fx.admin.token).post(`${siteBase}/unpublish`).expect(200);
    expect(await answers(name, null)).toEqual(gone);

    // another published site of the organization that the installation does not cover changes nothing, until the
    // installation covers all the organization's sites
    const other = await newSite(server, fx.admin, fx.org.id, { title: 'Other', spaces: [space.id] });
    await server
      .as(fx.admin.token)
      .post(`${sitesPath(fx.org.id)}/${other.id}/publish`)
      .expect(200);
    expect(await answers(name, null)).toEqual(gone);
    await server
      .as(fx.admin.token)
      .patch(`/v1/integrations/${name}/installations/${installation.id}`)
      .send({ site_selection: 'all' })
      .expect(200);
    expect(await answers(name, null)).toEqual(served);
  });

  /** The installation covers all of the organization's sites, and one site is published. */
  async function coverAllSitesAndPublishOne(fx: OrgFixture, name: string, installationId: string): Promise<void> {
    await server
      .as(fx.admin.token)
      .patch(`${path(name)}/installations/${installationId}`)
      .send({ site_selection: 'all' })
      .expect(200);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs', spaces: [space.id] });
    await server
      .as(fx.admin.token)
      .post(`${sitesPath(fx.org.id)}/${site.id}/publish`)
      .expect(200);
  }

  it("another organization's installation never opens a private integration's script", async () => {
    const a = await createOrg(server.ds);
    const b = await createOrg(server.ds);
    const name = unique('integ-');
    await publish(a, name, { visibility: 'public', scopes: ['site:script:inject'] });
    // B installs it on all its sites and publishes one
    const installed = await server
      .as(b.admin.token)
      .post(`${path(name)}/installations`)
      .send({ organization: b.org.id })
      .expect(201);
    await coverAllSitesAndPublishOne(b, name, installed.body.id);

    // going private while B has it is refused, naming how many installations stand in the way
    const refused = await server
      .as(a.admin.token)
      .post(path(name))
      .send(body(a.org, { visibility: 'private', script: 'const SECRET = "s3cr3t";\n' }))
      .expect(409);
    expect(refused.body.error).toEqual({
      code: 409,
      message: `visibility: "${name}" is installed in 1 other organization, and a private integration installs only in its own; publish it as "unlisted" to hide it from the catalogue, or unpublish it`,
      installations: 1,
    });
    expect((await request(server.app).get(paths(name)[0]).expect(200)).text).toBe(SCRIPT);

    // an installation elsewhere left from before this rule: B's published site opens nothing
    await server.ds.manager.update(Integration, { name }, { visibility: 'private' });
    expect((await request(server.app).get(paths(name)[0])).status).toBe(404);
    expect((await server.as(b.admin.token).get(paths(name)[0])).status).toBe(404);
    // the owner's own published site still does
    const integration = await server.ds.manager.findOneByOrFail(Integration, { name });
    const own = await inTransaction(heldBack(server.ds), (db) =>
      installIntegration(db, integration, a.org, a.admin.user.id),
    );
    await coverAllSitesAndPublishOne(a, name, own.installation.id);
    expect((await request(server.app).get(paths(name)[0])).status).toBe(200);

    // and once B uninstalls, A may go private
    await server.ds.manager.update(Integration, { name }, { visibility: 'public' });
    await server
      .as(b.admin.token)
      .delete(`${path(name)}/installations/${installed.body.id}`)
      .expect(204);
    await publish(a, name, { visibility: 'private' });
  });

  it('public and unlisted integrations stay served to anyone', async () => {
    const fx = await createOrg(server.ds);
    for (const visibility of ['public', 'unlisted']) {
      const name = unique('integ-');
      await publish(fx, name, { visibility, icon: b64(png()), previewImages: [b64(png())] });
      expect(await answers(name, null)).toEqual(served);
      const outsider = await createOrg(server.ds);
      expect(await answers(name, outsider.admin.token)).toEqual(served);
      expect((await request(server.app).get(paths(name)[1]).expect(200)).headers['cache-control']).toBe(
        'public, max-age=300',
      );
    }
  });
});
