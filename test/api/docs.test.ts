/**
 * GET /docs in a real browser (Debian's chromium, installed by scripts/test.sh), with every request that
 * leaves this machine refused: the reference must load, list the operations of several areas, expand one
 * and send it with a token ("Try it out").
 */
import { mkdtempSync, rmSync } from 'fs';
import type { Server } from 'http';
import { AddressInfo, createServer } from 'net';
import * as os from 'os';
import * as path from 'path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { createOrg, OrgFixture } from '../factories';
import { startServer, TestServer } from '../support/server';

let server: TestServer;
let http: Server;
let base: string;
let fixture: OrgFixture;
let profile: string;
let browser: BrowserContext;
let page: Page;
const leaving: string[] = [];
/** console errors and uncaught exceptions of the page, refusals by its Content Security Policy included */
const errors: string[] = [];

/** A port nothing listens on, so that the document's `servers` entry can name the server before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({ publicBaseUrl: base });
  fixture = await createOrg(server.ds);
  http = server.app.listen(port, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  profile = mkdtempSync(path.join(os.tmpdir(), 'docs-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  await browser.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    leaving.push(route.request().url());
    return route.abort();
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (http) await new Promise((resolve) => http.close(resolve));
  await server?.close();
});

/**
 * The paths of the operations listed under a tag, found as a reader would: with the filter box. (Past 150
 * tags and operations Swagger UI renders only those near the viewport.)
 */
async function operationsOf(tag: string): Promise<string[]> {
  const filter = page.locator('.operation-filter-input');
  await filter.fill(tag);
  await filter.blur(); // leaving the box re-renders the list: a click meant for an operation would be lost to it
  const heading = page.locator(`h3[data-tag="${tag}"]`);
  const paths = page.locator(`[id^="operations-${tag}-"] .opblock-summary-path`);
  await heading.waitFor();
  await paths.first().waitFor();
  return paths.allTextContents();
}

describe('GET /docs', () => {
  it('serves the reference with a policy that refuses other origins', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect((await fetch(`${base}/docs/assets/index.html`)).status).toBe(404);
  });

  it('lists the operations of the areas and expands one, offline', async () => {
    await page.goto(`${base}/docs`);
    await page.locator('.opblock-tag').first().waitFor();
    await expect(page.locator('.info .title').textContent()).resolves.toContain(
      'Documentation Platform Management API',
    );

    expect(await operationsOf('spaces')).toContain('/v1/spaces/{spaceId}');
    expect(await operationsOf('collections')).toContain('/v1/orgs/{organizationId}/collections');
    expect(await operationsOf('teams')).toContain('/v1/orgs/{organizationId}/teams/{teamId}/members');

    await operationsOf('spaces');
    const operation = page.locator('#operations-spaces-getSpace');
    await operation.locator('.opblock-summary-control').click();
    const body = operation.locator('.opblock-body');
    await body.waitFor();
    await expect(body.locator('.parameters').textContent()).resolves.toContain('spaceId');
    await expect(body.locator('.responses-table').textContent()).resolves.toContain('200');
    await page.screenshot({ path: path.join(os.tmpdir(), 'docs-reference.png') });

    expect(leaving).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('sends an operation with a token', async () => {
    await page.locator('.auth-wrapper .authorize').click();
    await page.locator('.modal-ux input[type=text]').fill(fixture.admin.token);
    await page.locator('.modal-ux .auth-btn-wrapper .authorize').click();
    await page.locator('.modal-ux .auth-btn-wrapper .btn-done').click();

    await operationsOf('users');
    const operation = page.locator('#operations-users-getAuthenticatedUser');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.execute').click();
    const answer = operation.locator('.live-responses-table .response');
    await answer.waitFor();
    await expect(answer.locator('.response-col_status').textContent()).resolves.toBe('200');
    await expect(answer.locator('.response-col_description').textContent()).resolves.toContain(
      fixture.admin.user.email,
    );

    expect(leaving).toEqual([]);
    expect(errors).toEqual([]);
  });
});
