/**
 * GET /docs in a real browser (Debian's chromium, installed by scripts/test.sh), with every request that
 * leaves this machine refused: the reference must load, list the operations of several areas and expand one.
 */
import { mkdtempSync, rmSync } from 'fs';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import type { Server } from 'http';
import { useServer } from '../support/server';

const server = useServer();
let http: Server;
let base: string;
let profile: string;
let browser: BrowserContext;
let page: Page;
const leaving: string[] = [];
/** console errors and uncaught exceptions of the page, refusals by its Content Security Policy included */
const errors: string[] = [];

beforeAll(async () => {
  http = server.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  profile = mkdtempSync(path.join(os.tmpdir(), 'docs-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
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
});

/** The summaries of the operations listed under a tag. */
async function operationsOf(tag: string): Promise<string[]> {
  const section = page.locator('.opblock-tag-section').filter({ has: page.locator(`h3[data-tag="${tag}"]`) });
  return section.locator('.opblock-summary-path').allTextContents();
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
    await expect(page.locator('.info .title').textContent()).resolves.toContain('Documentation Platform Management API');

    expect(await operationsOf('spaces')).toContain('/v1/spaces/{spaceId}');
    expect(await operationsOf('collections')).toContain('/v1/orgs/{organizationId}/collections');
    expect(await operationsOf('teams')).toContain('/v1/orgs/{organizationId}/teams/{teamId}/members');

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
});
