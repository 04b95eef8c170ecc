/**
 * GitBook's own integration CLI (`gitbook publish` from npm @gitbook/cli, installed with scripts
 * disabled) against this service listening on a local port: it builds the manifest's script with
 * esbuild and publishes it through GITBOOK_ENDPOINT with GITBOOK_TOKEN; a second publish is version 2.
 * GitBook's generated client then reads, lists (its query serialization of the filters) and unpublishes.
 */
import { GitBookAPI } from '@gitbook/api';
import { execFile } from 'child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'fs/promises';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import * as path from 'path';
import { PNG } from 'pngjs';
import { promisify } from 'util';
import { decryptSecrets } from '../../domain/integrations/secrets';
import { Integration } from '../../entities/Integration';
import { addMember, createOrg, unique } from '../factories';
import { useServer } from '../support/server';

const run = promisify(execFile);
const CLI = path.resolve(__dirname, '../../node_modules/@gitbook/cli/cli.js');

const server = useServer();
let listener: Server;
let endpoint: string;
let dir: string;
beforeAll(async () => {
  listener = server.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  endpoint = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(tmpdir(), 'gitbook-cli-'));
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Runs `gitbook <args>` in `cwd` (asynchronously: the API answering it runs in this process). */
async function gitbook(cwd: string, token: string, args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [CLI, ...args], {
    cwd,
    timeout: 60_000,
    // its configuration store (unused with GITBOOK_TOKEN) goes to a private home
    env: {
      PATH: process.env.PATH ?? '',
      HOME: path.join(dir, 'home'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      GITBOOK_TOKEN: token,
      GITBOOK_ENDPOINT: endpoint,
      ...env,
    },
  });
}

function manifest(fields: Record<string, string>): string {
  return `${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n`;
}

const icon = () => {
  const image = new PNG({ width: 8, height: 8 });
  image.data.fill(0x40);
  return PNG.sync.write(image);
};

describe('gitbook publish', () => {
  it('publishes an integration from a gitbook-manifest.yaml, then republishes it as version 2', async () => {
    const fx = await createOrg(server.ds);
    const name = unique('cli-');
    const project = path.join(dir, name);
    await mkdir(path.join(project, 'src'), { recursive: true });
    await writeFile(path.join(project, 'icon.png'), icon());
    await writeFile(path.join(project, 'src', 'helper.js'), 'export const greeting = () => "first-build";\n');
    await writeFile(
      path.join(project, 'src', 'index.js'),
      'import { greeting } from "./helper.js";\nexport default { fetch() { return new Response(greeting()); } };\n',
    );
    const base = {
      name,
      title: 'CLI integration',
      description: 'Published by the gitbook CLI',
      script: 'src/index.js',
      icon: 'icon.png',
      organization: fx.org.id,
      visibility: 'unlisted',
      scopes: '\n  - space:content:read\n  - site:script:inject',
      categories: '\n  - content',
      blocks: '\n  - id: card\n    title: Card\n    urlUnfurl:\n      - https://cards.example.com/**',
      externalLinks: '\n  - label: Docs\n    url: https://example.com/docs',
      configurations:
        '\n  account:\n    properties:\n      token:\n        type: string\n        title: Token\n    required:\n      - token',
      contentSecurityPolicy: '\n  script-src: https://cdn.example.com',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's own ${{ env.NAME }} syntax, read by the CLI
      secrets: '\n  API_KEY: ${{ env.CLI_TEST_SECRET }}',
    };
    await writeFile(path.join(project, 'gitbook-manifest.yaml'), manifest(base));

    const first = await gitbook(project, fx.admin.token, ['publish'], { CLI_TEST_SECRET: 'from-the-environment' });
    expect(first.stdout).toContain(`Integration "${name}" published`);
    expect(first.stdout).toContain(`${server.config.appBaseUrl}/integrations/${name}`);

    const published = (await server.as(fx.admin.token).get(`/v1/integrations/${name}`).expect(200)).body;
    expect(published).toMatchObject({
      name,
      version: 1,
      runtime: 'v2',
      title: 'CLI integration',
      description: 'Published by the gitbook CLI',
      visibility: 'unlisted',
      target: 'all',
      scopes: ['space:content:read', 'site:script:inject'],
      categories: ['content'],
      blocks: [{ id: 'card', title: 'Card', urlUnfurl: ['https://cards.example.com/**'] }],
      externalLinks: [{ label: 'Docs', url: 'https://example.com/docs' }],
      configurations: { account: { properties: { token: { type: 'string', title: 'Token' } }, required: ['token'] } },
      contentSecurityPolicy: 'script-src https://cdn.example.com',
      previewImages: [],
      owner: expect.objectContaining({ id: fx.org.id }),
    });
    expect(published.urls.icon).toMatch(/\/assets\/icon\.png\?v=1$/);
    const row = await server.ds.manager.findOneByOrFail(Integration, { name });
    expect(decryptSecrets(server.config, row)).toEqual({ API_KEY: 'from-the-environment' });
    // the script is the CLI's esbuild bundle: one ES module with the helper inlined
    const script = (await server.as('').get(`/v1/integrations/${name}/script.js`).expect(200)).text;
    expect(script).toContain('first-build');
    expect(script).not.toContain('import');

    // edit the code and the manifest, publish again with the organization given by hostname
    const hostname = unique('cli').toLowerCase();
    await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ hostname }).expect(200);
    await writeFile(path.join(project, 'src', 'helper.js'), 'export const greeting = () => "second-build";\n');
    await writeFile(path.join(project, 'gitbook-manifest.yaml'), manifest({ ...base, title: 'CLI integration v2' }));
    const second = await gitbook(project, fx.admin.token, ['publish', '--organization', hostname], {
      CLI_TEST_SECRET: 'rotated',
    });
    expect(second.stdout).toContain(`Integration "${name}" published`);

    const republished = (await server.as(fx.admin.token).get(`/v1/integrations/${name}`).expect(200)).body;
    expect(republished).toMatchObject({ version: 2, title: 'CLI integration v2' });
    expect(republished.urls.icon).toMatch(/\?v=2$/);
    expect((await server.as('').get(`/v1/integrations/${name}/script.js`).expect(200)).text).toContain('second-build');
    expect(decryptSecrets(server.config, await server.ds.manager.findOneByOrFail(Integration, { name }))).toEqual({
      API_KEY: 'rotated',
    });

    // `gitbook whoami` reads the caller (GET /v1/user)
    expect((await gitbook(project, fx.admin.token, ['whoami'])).stdout).toContain(`Email: ${fx.admin.user.email}`);
  }, 120_000);

  it("GitBook's client (@gitbook/api 0.137.0) reads, lists with filters and unpublishes what the CLI published", async () => {
    const fx = await createOrg(server.ds);
    const name = unique('cli-');
    const project = path.join(dir, name);
    await mkdir(path.join(project, 'src'), { recursive: true });
    await writeFile(path.join(project, 'src', 'index.js'), 'export default {};\n');
    const blocks = '\n  - id: card\n    title: Card\n    urlUnfurl:\n      - https://cards.example.com/**';
    await writeFile(
      path.join(project, 'gitbook-manifest.yaml'),
      manifest({
        name,
        title: 'Listed',
        script: 'src/index.js',
        organization: fx.org.id,
        scopes: '[]',
        visibility: 'public',
        blocks,
      }),
    );
    await gitbook(project, fx.admin.token, ['publish']);

    const client = new GitBookAPI({ endpoint, authToken: fx.admin.token });
    expect((await client.integrations.getIntegrationByName(name)).data).toMatchObject({
      name,
      version: 1,
      visibility: 'public',
    });
    const listed = await client.integrations.listIntegrations({
      owner: fx.org.id,
      blocks: true,
      blockDomain: 'cards.example.com',
      limit: 10,
    });
    expect(listed.data.items.map((i) => i.name)).toEqual([name]);
    expect((await client.integrations.listIntegrations({ owner: fx.org.id, blocks: false })).data.items).toEqual([]);
    await client.integrations.unpublishIntegration(name);
    await expect(client.integrations.getIntegrationByName(name)).rejects.toMatchObject({ code: 404 });
  }, 120_000);

  it("fails with the API's message when the caller is not an admin of the organization", async () => {
    const fx = await createOrg(server.ds);
    const editor = await addMember(server.ds, fx.org, 'edit');
    const name = unique('cli-');
    const project = path.join(dir, name);
    await mkdir(path.join(project, 'src'), { recursive: true });
    await writeFile(path.join(project, 'src', 'index.js'), 'export default {};\n');
    await writeFile(
      path.join(project, 'gitbook-manifest.yaml'),
      manifest({ name, title: 'Refused', script: 'src/index.js', organization: fx.org.id, scopes: '[]' }),
    );
    const failed = await gitbook(project, editor.token, ['publish']).then(
      () => null,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).not.toBe(0);
    expect(`${failed!.stdout}${failed!.stderr}`).toContain('you need the "admin" permission on this organization');
    expect(await server.ds.manager.countBy(Integration, { name })).toBe(0);
  }, 120_000);
});
