/**
 * Content import end to end: both `content/import` operations over the real API, the content-import
 * job on a real worker, documents served by a local website (loopback is allowed by this test's fetch
 * policy; private and link-local addresses stay refused), and the import runs at `/v1/org/…/imports`.
 */
import { promises as dns } from 'dns';
import { promises as fs } from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import path from 'path';
import pino from 'pino';
import request from 'supertest';
import { contentImportJob } from '../../domain/imports/import-job';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { ImportRun } from '../../entities/ImportRun';
import { Revision } from '../../entities/Revision';
import { loadConfig } from '../../platform/config';
import { GuardedFetch, Resolver } from '../../platform/net/guarded-fetch';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newChangeRequest, newSpace } from '../support/api';
import { docxWithImage, zipOf } from '../support/import-fixtures';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';
import { pngBytes, SECTIONS, startWebsite, Website } from '../support/website';

const MARKDOWN = `---
title: Release notes
---
Intro with a [relative link](other.md) and a table:

| a | b |
| - | - |
| 1 | 2 |

![chart](img/chart.png)
`;

const ZIP_FILES = {
  'handbook/README.md': '# Handbook\n\nStart with [the setup](guide/setup.md) or [the guide](guide/).\n',
  'handbook/guide/README.md': '# The guide\n\nSee [setup](setup.md#install).\n',
  'handbook/guide/setup.md':
    '# Setup\n\n## Install\n\n![diagram](../images/diagram.png)\n\nBack to [the handbook](../README.md).\n',
  'handbook/faq/questions.md': '# Questions\n\nNothing yet.\n',
  'handbook/images/diagram.png': pngBytes(7),
  'handbook/.hidden.md': '# hidden\n',
};

/** Names of an internal network, as the worker's resolver sees them; any other name resolves as usual. */
const internalNames: Resolver = async (host) => {
  if (host === 'vm.internal') return [{ address: '10.0.0.7', family: 4 }];
  if (host === 'gone.internal')
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
  return dns.lookup(host, { all: true, verbatim: true });
};
/** What the worker's guarded fetch logged. */
const fetchLog: Array<Record<string, unknown>> = [];

let site: Website;
let server: TestServer;
/** the same app awaiting no import: every import answers 202 */
let impatient: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  site = await startWebsite({
    pages: 60,
    files: {
      '/docs/notes.md': { type: 'text/markdown', body: MARKDOWN },
      '/docs/img/chart.png': { type: 'image/png', body: pngBytes(3) },
      '/docs/handbook.zip': { type: 'application/zip', body: await zipOf(ZIP_FILES) },
      '/docs/letter.docx': {
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        body: await docxWithImage('A letter'),
      },
      '/docs/bomb.zip': { type: 'application/zip', body: await zipOf({ 'a.md': 'x'.repeat(2_000_000) }) },
      '/docs/not-a-zip.zip': { type: 'application/zip', body: 'plain text' },
      // documents past the bounds of one document
      '/bombs/index.html': {
        type: 'text/html',
        body: '<html><body><main><h1>Bombs</h1><p><a href="deep.html">Deep</a> and <a href="wide.html">wide</a>.</p></main></body></html>',
      },
      '/bombs/deep.html': { type: 'text/html', body: `<p>x</p>${'<div>'.repeat(257)}deep${'</div>'.repeat(257)}` },
      '/bombs/wide.html': { type: 'text/html', body: `<h1>Wide</h1>${'<p>x</p>'.repeat(20_000)}` },
      '/bombs/cells.md': {
        type: 'text/markdown',
        body: `${'|h'.repeat(100)}|\n${'|-'.repeat(100)}|\n${`${'|a'.repeat(100)}|\n`.repeat(650)}`,
      },
    },
  });
  const base = loadConfig();
  const config = shortJobRetries(
    privateTaskQueue({
      ...base,
      fetch: { ...base.fetch, allowLoopback: true, connectTimeoutMs: 500, totalTimeoutMs: 1500 },
      imports: { ...base.imports, waitSeconds: 20, batchPages: 20, maxBytes: 1_000_000 },
    }),
  );
  server = await startServer(config);
  impatient = await startServer({ ...config, imports: { ...config.imports, waitSeconds: 0 } });
  worker = await startWorker(server.ds, server.config, {
    fetch: new GuardedFetch(
      { ...config.fetch, resolve: internalNames },
      { logger: pino({ level: 'info' }, { write: (line: string) => fetchLog.push(JSON.parse(line)) }) },
    ),
  });
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await impatient?.close();
  await server?.close();
  await site?.close();
});

const importPath = (spaceId: string, changeRequestId?: string) =>
  changeRequestId
    ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/import`
    : `/v1/spaces/${spaceId}/content/import`;

function importInto(fx: OrgFixture, spaceId: string, body: object, changeRequestId?: string): request.Test {
  return server.as(fx.admin.token).post(importPath(spaceId, changeRequestId)).send(body);
}

async function content(fx: OrgFixture, spaceId: string, changeRequestId?: string): Promise<Json> {
  const prefix = changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}` : `/v1/spaces/${spaceId}`;
  return (await server.as(fx.admin.token).get(`${prefix}/content`).expect(200)).body;
}

/** Every page of a tree, depth first. */
function flatten(pages: Json[]): Json[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

async function runOf(fx: OrgFixture, location: string): Promise<Json> {
  return (await server.as(fx.admin.token).get(new URL(location).pathname).expect(200)).body;
}

/** Polls the import run until it ends. */
async function ended(fx: OrgFixture, location: string): Promise<Json> {
  for (let i = 0; i < 400; i++) {
    const run = await runOf(fx, location);
    if (!['pending', 'in-progress'].includes(run.status)) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${location} did not end in time`);
}

describe('POST {content}/import', () => {
  it('imports a website into a space: the page tree follows the URL paths, images are files, links between pages are page links', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const res = await importInto(fx, space.id, { url: `${site.base}/site/`, source: 'website' }).expect(201);
    const pageCount = 1 + SECTIONS + 60;
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: pageCount, totalResources: pageCount });
    expect(res.headers.location).toMatch(new RegExp(`/v1/org/${fx.org.id}/imports/[\\w-]+$`));

    const tree = await content(fx, space.id);
    expect(tree.id).toBe(res.body.revision);
    // GitBook's revision types: an import revision is content written like edits
    expect(tree.type).toBe('edits');
    const pages = flatten(tree.pages);
    expect(pages).toHaveLength(pageCount);
    expect(pages.map((p) => p.title)).not.toContain('Secret'); // robots.txt disallows it
    // the home page, then the sections (each a folder of its pages) at the root
    expect(tree.pages.map((p: Json) => p.title)).toEqual([
      'Home',
      ...Array.from({ length: SECTIONS }, (_, k) => `Section ${k}`),
    ]);
    const section3 = tree.pages.find((p: Json) => p.title === 'Section 3');
    expect(section3.pages.map((p: Json) => p.title)).toEqual([
      'Page 3',
      'Page 13',
      'Page 23',
      'Page 33',
      'Page 43',
      'Page 53',
    ]);

    const page13 = section3.pages[1];
    expect(page13.markdown).not.toContain('Footer text'); // main content only
    expect(page13.markdown).not.toMatch(/^# Page 13/); // the title is the page's, not a heading
    expect(page13.markdown).toContain('## Details');
    const byTitle = new Map(pages.map((p) => [p.title, p.id]));
    expect(page13.markdown).toContain(`[next page](page:${byTitle.get('Page 14')})`);
    expect(page13.markdown).toContain(`[previous page](page:${byTitle.get('Page 12')})`);
    expect(page13.markdown).toContain(`[to its section](page:${byTitle.get('Section 3')})`);
    expect(page13.markdown).toContain(`[outside the site](${site.base}/outside/page.html)`);
    const imageRef = /!\[Figure 13\]\(file:([\w-]+)\)/.exec(page13.markdown);
    expect(imageRef).not.toBeNull();
    // 20 distinct images, each stored once
    expect(tree.files).toHaveLength(20);
    const file = tree.files.find((f: Json) => f.id === imageRef![1]);
    expect(file).toMatchObject({
      name: '13.png',
      contentType: 'image/png',
      size: pngBytes(13).length,
      dimensions: { width: 1, height: 1 },
    });
    const download = await request(server.app)
      .get(new URL(file.downloadURL).pathname + new URL(file.downloadURL).search)
      .expect(200);
    expect(Buffer.from(download.body)).toEqual(pngBytes(13));

    const run = await runOf(fx, res.headers.location);
    expect(run).toMatchObject({
      object: 'import-run',
      status: 'completed',
      reason: null,
      errorCode: null,
      revision: res.body.revision,
      source: { type: 'website', url: `${site.base}/site/`, importSource: 'website' },
      target: { space: space.id, changeRequest: null, page: null },
      createdBy: fx.admin.user.id,
      importedResources: pageCount,
      totalResources: pageCount,
      urls: { location: res.headers.location },
    });
    expect(run.completedAt).toEqual(expect.any(String));
    expect(run.progress).toEqual({ done: pageCount, total: pageCount });
    // the Temporal UI shows the progress in the memo and finds the run by its search attributes
    const client = await server.temporal.getClient();
    const workflow = await client.workflow.getHandle(`content-import/${run.id}/1`).describe();
    expect(workflow.memo).toEqual({ progress: { done: pageCount, total: pageCount }, revision: res.body.revision });
    expect(workflow.searchAttributes).toMatchObject({
      OrganizationId: [fx.org.id],
      SpaceId: [space.id],
      ResourceId: [run.id],
    });
  });

  it('imports one HTML page without following its links', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const res = await importInto(fx, space.id, {
      url: `${site.base}/site/section-2/page-12.html`,
      source: 'html',
    }).expect(201);
    expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1 });
    const tree = await content(fx, space.id);
    expect(tree.pages.map((p: Json) => p.title)).toEqual(['Page 12']);
    expect(tree.pages[0].markdown).toContain(`[next page](${site.base}/site/section-3/page-13.html)`);
    expect(tree.files).toHaveLength(1);
  });

  it('imports a markdown URL: its front matter title, its table, its image as a file, relative links made absolute', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    await importInto(fx, space.id, { url: `${site.base}/docs/notes.md`, source: 'markdown' }).expect(201);
    const tree = await content(fx, space.id);
    expect(tree.pages).toHaveLength(1);
    const [page] = tree.pages;
    expect(page.title).toBe('Release notes');
    expect(page.markdown).toContain(`[relative link](${site.base}/docs/other.md)`);
    expect(page.markdown).toContain('| a | b |');
    expect(page.markdown).toContain(`![chart](file:${tree.files[0].id})`);
    expect(tree.files[0]).toMatchObject({ name: 'chart.png', contentType: 'image/png' });
  });

  it('imports a zip of markdown and images: folders become the page tree, links between files page links', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const res = await importInto(fx, space.id, { url: `${site.base}/docs/handbook.zip`, source: 'zip' }).expect(201);
    expect(res.body).toMatchObject({ importedResources: 4, totalResources: 4 });
    const tree = await content(fx, space.id);
    // README.md is its folder's page; faq has no page of its own: a folder page
    expect(tree.pages.map((p: Json) => [p.title, p.pages.map((c: Json) => c.title)])).toEqual([
      ['Handbook', []],
      ['Faq', ['Questions']],
      ['The guide', ['Setup']],
    ]);
    const ids = new Map(flatten(tree.pages).map((p) => [p.title, p.id]));
    expect(tree.pages[0].markdown).toBe(
      `Start with [the setup](page:${ids.get('Setup')}) or [the guide](page:${ids.get('The guide')}).`,
    );
    const setup = tree.pages[2].pages[0];
    expect(tree.pages[1].markdown).toBe('');
    expect(setup.markdown).toContain(`![diagram](file:${tree.files[0].id})`);
    expect(setup.markdown).toContain(`[the handbook](page:${ids.get('Handbook')})`);
    expect(tree.pages[2].markdown).toContain(`[setup](page:${ids.get('Setup')}#install)`);
    expect(tree.files).toEqual([
      expect.objectContaining({ name: 'diagram.png', contentType: 'image/png', size: pngBytes(7).length }),
    ]);
  });

  it('imports a Word document with its image', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    await importInto(fx, space.id, { url: `${site.base}/docs/letter.docx`, source: 'docx' }).expect(201);
    const tree = await content(fx, space.id);
    expect(tree.pages).toHaveLength(1);
    expect(tree.pages[0].title).toBe('A letter');
    expect(tree.pages[0].markdown).toContain('Written in Word, with **bold words**.');
    expect(tree.files).toEqual([expect.objectContaining({ contentType: 'image/png', size: pngBytes(99).length })]);
    expect(tree.pages[0].markdown).toContain(`(file:${tree.files[0].id})`);
  });

  it('answers 400 naming the field, 401 without a token, 404 for another organization, 403 for a read member', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const path = importPath(space.id);
    const bad = async (body: object, message: string) =>
      expect((await server.as(fx.admin.token).post(path).send(body).expect(400)).body.error.message).toBe(message);
    await bad({ source: 'website' }, 'url: is required');
    await bad({ url: `${site.base}/site/` }, 'source: is required');
    await bad({ url: 'ftp://example.com/a.md', source: 'markdown' }, 'url: must be an http or https URL');
    await bad({ url: 'not a url', source: 'markdown' }, 'url: must be a valid url');
    await bad(
      { url: `${site.base}/a`, source: 'notion' },
      'source: notion is not supported here (supported: website, html, markdown, zip, docx)',
    );
    await bad(
      { url: `${site.base}/a`, source: 'pdf' },
      'source: must be one of website, docx, markdown, html, zip, confluence, github-wiki, notion, google-docs',
    );
    await bad({ url: `${site.base}/a`, source: 'html', page: 'x' }, 'page: unknown field; accepted: url, source');

    await request(server.app)
      .post(path)
      .send({ url: `${site.base}/site/`, source: 'html' })
      .expect(401);
    const other = await createOrg(server.ds);
    await server
      .as(other.admin.token)
      .post(path)
      .send({ url: `${site.base}/site/`, source: 'html' })
      .expect(404);
    const reader = await addMember(server.ds, fx.org, 'read');
    await server
      .as(reader.token)
      .post(path)
      .send({ url: `${site.base}/site/`, source: 'html' })
      .expect(403);
    expect(await server.ds.manager.countBy(ImportRun, { spaceId: space.id })).toBe(0);
  });

  it.each([
    ['10.0.0.1', 'http://10.0.0.1/docs/'],
    ['169.254.169.254', 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s: the run ends as FETCH_ERROR, the content untouched', async (_name, url) => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const before = await content(fx, space.id);
    const res = await importInto(fx, space.id, { url, source: 'website' }).expect(400);
    expect(res.body.error.message).toMatch(
      /^url: the import failed \(FETCH_ERROR\): .*the destination is not allowed or could not be reached$/,
    );
    const run = await runOf(fx, res.headers.location);
    expect(run).toMatchObject({
      status: 'failed',
      errorCode: 'FETCH_ERROR',
      revision: null,
      reason: expect.stringContaining('the destination is not allowed or could not be reached'),
    });
    expect((await content(fx, space.id)).id).toBe(before.id);
  });

  it('a name resolving to a private address and one that does not resolve fail alike, without their address, resolution or errno; the log has them', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    for (const url of ['http://vm.internal/docs/', 'http://gone.internal/docs/']) {
      const res = await importInto(fx, space.id, { url, source: 'html' }).expect(400);
      const said = `${url}: the destination is not allowed or could not be reached`;
      expect(res.body.error.message).toBe(`url: the import failed (FETCH_ERROR): ${said}`);
      const run = await runOf(fx, res.headers.location);
      expect([run.errorCode, run.reason]).toEqual(['FETCH_ERROR', said]);
      const row = await server.ds.manager.findOneByOrFail(ImportRun, { id: run.id });
      expect(row.process.errorMessages).toEqual([{ message: said, code: 'unreachable' }]);
      for (const text of [res.body.error.message, JSON.stringify(run), JSON.stringify(row.process)])
        expect(text).not.toMatch(/resolves|10\.0\.0\.7|ENOTFOUND|DNS|private/);
    }
    expect(fetchLog.map((l) => [l.destination, l.detail])).toEqual(
      expect.arrayContaining([
        ['vm.internal', 'refused destination: vm.internal resolves to a private address (10.0.0.7)'],
        ['gone.internal', 'gone.internal: DNS lookup failed (ENOTFOUND)'],
      ]),
    );
  });

  it('fails on what cannot be read: not an archive (PARSE_ERROR), an archive beyond the byte budget (LIMIT_EXCEEDED), a missing page or one robots.txt disallows (FETCH_ERROR)', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const failure = async (url: string, source: string) =>
      (await importInto(fx, space.id, { url, source }).expect(400)).body.error.message;
    expect(await failure(`${site.base}/docs/not-a-zip.zip`, 'zip')).toMatch(
      /^url: the import failed \(PARSE_ERROR\): not a zip archive/,
    );
    expect(await failure(`${site.base}/docs/bomb.zip`, 'zip')).toMatch(
      /^url: the import failed \(LIMIT_EXCEEDED\): the archive unpacks to more than/,
    );
    expect(await failure(`${site.base}/docs/missing.md`, 'markdown')).toMatch(
      /^url: the import failed \(FETCH_ERROR\): .*answered HTTP 404/,
    );
    expect(await failure(`${site.base}/docs/letter.docx`, 'zip')).toMatch(/PARSE_ERROR.*no markdown file/);
    expect(await failure(`${site.base}/site/private/`, 'website')).toMatch(
      /^url: the import failed \(FETCH_ERROR\): .*robots\.txt disallows it/,
    );
    expect(await server.ds.manager.countBy(Revision, { spaceId: space.id, type: 'import' })).toBe(0);
  });

  it('a crawled page past the bounds of a document is left out; a start page or a document past them fails LIMIT_EXCEEDED', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const crawled = await importInto(fx, space.id, { url: `${site.base}/bombs/index.html`, source: 'website' }).expect(
      201,
    );
    expect(crawled.body).toMatchObject({ importedResources: 1, totalResources: 3 });
    expect(flatten((await content(fx, space.id)).pages).map((p) => p.title)).toEqual(['Bombs']);
    const failure = async (file: string, source: string) =>
      (await importInto(fx, space.id, { url: `${site.base}/bombs/${file}`, source }).expect(400)).body.error.message;
    expect(await failure('deep.html', 'html')).toBe(
      `url: the import failed (LIMIT_EXCEEDED): ${site.base}/bombs/deep.html: the document nests elements more than 256 levels deep`,
    );
    expect(await failure('wide.html', 'website')).toBe(
      `url: the import failed (LIMIT_EXCEEDED): ${site.base}/bombs/wide.html: the document has more than 20000 elements`,
    );
    expect(await failure('cells.md', 'markdown')).toBe(
      `url: the import failed (LIMIT_EXCEEDED): ${site.base}/bombs/cells.md: the markdown must not parse into more than 250000 markdown tokens (blocks, inlines and their ends)`,
    );
    expect(await server.ds.manager.countBy(Revision, { spaceId: space.id, type: 'import' })).toBe(1);
  });

  it('answers 202 with the import run past IMPORT_WAIT_SECONDS; the run completes, and the same request again finds it', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const body = { url: `${site.base}/site/`, source: 'website' };
    const res = await impatient.as(fx.admin.token).post(importPath(space.id)).send(body).expect(202);
    expect(res.body).toMatchObject({
      object: 'import-run',
      status: expect.stringMatching(/^(pending|in-progress)$/),
      urls: { location: res.headers.location },
    });
    const again = await impatient.as(fx.admin.token).post(importPath(space.id)).send(body);
    expect(again.headers.location).toBe(res.headers.location);
    const run = await ended(fx, res.headers.location);
    expect(run).toMatchObject({ status: 'completed', revision: expect.any(String) });
    expect(await server.ds.manager.countBy(Revision, { spaceId: space.id, type: 'import' })).toBe(1);
  });

  it('refuses a merged change request (409) before creating a run', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const cr = await newChangeRequest(server, fx.admin, space.id);
    await server.as(fx.admin.token).post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).expect(200);
    await importInto(fx, space.id, { url: `${site.base}/docs/notes.md`, source: 'markdown' }, cr.id).expect(409);
  });
});

describe('a 200-page website into a change request', () => {
  let big: Website;
  beforeAll(async () => {
    big = await startWebsite({ pages: 200 - 1 - SECTIONS });
  });
  afterAll(async () => big.close());

  it('imports every page with its images, and every link of every page resolves to ok', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const res = await importInto(fx, space.id, { url: `${big.base}/site/`, source: 'website' }, cr.id).expect(201);
    expect(res.body).toMatchObject({ importedResources: 200 });
    const tree = await content(fx, space.id, cr.id);
    const pages = flatten(tree.pages);
    expect(pages).toHaveLength(200);
    expect(tree.files).toHaveLength(20);
    expect((await content(fx, space.id)).pages).toEqual([]); // the space's own content is untouched
    let links = 0;
    for (const page of pages) {
      const listed = await listAll(
        server,
        fx.admin,
        `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${page.id}/links`,
      );
      links += listed.items.length;
      for (const link of listed.items)
        expect({ page: page.title, target: link.target, status: link.status }).toEqual({
          page: page.title,
          target: link.target,
          status: 'ok',
        });
    }
    expect(links).toBeGreaterThan(200 * 3);
  }, 120000);
});

describe('import runs', () => {
  it('are listed most recent first with GitBook filters, read, and refused to other organizations and to cancels of ended runs', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const ok = await importInto(fx, space.id, { url: `${site.base}/docs/notes.md`, source: 'markdown' }).expect(201);
    const failed = await importInto(fx, space.id, { url: `${site.base}/docs/missing.md`, source: 'markdown' }).expect(
      400,
    );
    const list = `/v1/org/${fx.org.id}/imports`;
    const ids = (location: string) => location.split('/').pop();
    expect((await listAll(server, fx.admin, list)).ids).toEqual([
      ids(failed.headers.location),
      ids(ok.headers.location),
    ]);
    expect((await listAll(server, fx.admin, list, { status: 'completed' })).ids).toEqual([ids(ok.headers.location)]);
    expect((await listAll(server, fx.admin, list, { status: 'failed' })).ids).toEqual([ids(failed.headers.location)]);
    expect((await listAll(server, fx.admin, list, { status: 'active' })).ids).toEqual([]);
    expect((await listAll(server, fx.admin, list, { space: 'nope' })).ids).toEqual([]);
    expect(
      (await server.as(fx.admin.token).get(list).query({ status: 'done' }).expect(400)).body.error.message,
    ).toMatch(/^status: must be one of active/);

    const cancel = `${new URL(ok.headers.location).pathname}/cancel`;
    expect((await server.as(fx.admin.token).post(cancel).expect(400)).body.error.message).toBe(
      'status: the import run is committed; only a pending or in-progress import can be cancelled',
    );
    const reader = await addMember(server.ds, fx.org, 'read');
    await server.as(reader.token).get(new URL(ok.headers.location).pathname).expect(200);
    await server.as(reader.token).post(cancel).expect(403);
    const other = await createOrg(server.ds);
    await server.as(other.admin.token).get(new URL(ok.headers.location).pathname).expect(404);
    await server.as(other.admin.token).get(list).expect(404);
    await server
      .as(other.admin.token)
      .get(`/v1/org/${other.org.id}/imports/${ids(ok.headers.location)}`)
      .expect(404);
    await request(server.app).get(list).expect(401);
  });
});

describe('cancelling and superseding', () => {
  let slow: Website;
  beforeAll(async () => {
    slow = await startWebsite({ pages: 40, delayMs: 150 });
  });
  afterAll(async () => slow.close());

  /** The blobs under the run's folder (the local store leaves empty folders behind). */
  async function stagedBlobs(runId: string): Promise<string[]> {
    const entries = await fs
      .readdir(path.join(server.config.blobs.dir, 'imports', runId), { recursive: true, withFileTypes: true })
      .catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  }

  it('cancel mid-import: the run is cancelled, nothing is committed, its staging is removed', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const before = await content(fx, space.id, cr.id);
    const res = await impatient
      .as(fx.admin.token)
      .post(importPath(space.id, cr.id))
      .send({ url: `${slow.base}/site/`, source: 'website' })
      .expect(202);
    const runPath = new URL(res.headers.location).pathname;
    for (let i = 0; (await runOf(fx, res.headers.location)).progress.done === 0; i++) {
      if (i > 200) throw new Error('the import made no progress');
      await new Promise((r) => setTimeout(r, 50));
    }
    const cancelled = (await server.as(fx.admin.token).post(`${runPath}/cancel`).expect(200)).body;
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      reason: 'cancelled by request',
      errorCode: 'CANCELLED',
      revision: null,
      completedAt: null,
    });
    const servedAtCancel = slow.served();
    await new Promise((r) => setTimeout(r, 1500));
    expect(slow.served() - servedAtCancel).toBeLessThanOrEqual(20); // the batch under way stops; no further batch runs
    expect(await runOf(fx, res.headers.location)).toMatchObject({ status: 'cancelled', revision: null });
    expect((await content(fx, space.id, cr.id)).id).toBe(before.id);
    expect(await server.ds.manager.countBy(Revision, { changeRequestId: cr.id, type: 'import' })).toBe(0);
    expect(await stagedBlobs(res.headers.location.split('/').pop()!)).toEqual([]);
    expect((await server.as(fx.admin.token).post(`${runPath}/cancel`).expect(400)).body.error.message).toMatch(
      /the import run is cancelled/,
    );
  }, 30000);

  it('a source answering 503 is retried within the budget: the import completes', async () => {
    let asked = 0;
    const flaky = http.createServer((_req, res) => {
      asked++;
      if (asked === 1) return void res.writeHead(503).end('busy');
      res.writeHead(200, { 'Content-Type': 'text/markdown' }).end('# Flaky\n\nServed on a second try.\n');
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const fx = await createOrg(server.ds);
      const space = await newSpace(server, fx.admin, fx.org.id);
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/flaky.md`;
      const res = await importInto(fx, space.id, { url, source: 'markdown' });
      expect([201, 202]).toContain(res.status);
      if (res.status === 202) expect((await ended(fx, res.headers.location)).status).toBe('completed');
      expect(asked).toBe(2);
      expect(flatten((await content(fx, space.id)).pages).map((p) => p.title)).toEqual(['Flaky']);
    } finally {
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
  });

  it('a cancel while a batch stores images leaves no staging blob; the batch stops within seconds', async () => {
    // a markdown page showing 12 images, each answered after 400 ms: its one batch stores them one by one
    let served = 0;
    const gallery = http.createServer((req, res) => {
      if (req.url === '/gallery.md') {
        const images = Array.from({ length: 12 }, (_, i) => `![image ${i}](/img/${i}.png)`).join('\n\n');
        return void res.writeHead(200, { 'Content-Type': 'text/markdown' }).end(`# Gallery\n\n${images}\n`);
      }
      served++;
      const n = Number(/\/img\/(\d+)\.png$/.exec(req.url ?? '')?.[1] ?? 0);
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'image/png' }).end(pngBytes(100 + n)), 400);
    });
    await new Promise<void>((resolve) => gallery.listen(0, '127.0.0.1', resolve));
    try {
      const fx = await createOrg(server.ds);
      const space = await newSpace(server, fx.admin, fx.org.id);
      const res = await impatient
        .as(fx.admin.token)
        .post(importPath(space.id))
        .send({ url: `http://127.0.0.1:${(gallery.address() as AddressInfo).port}/gallery.md`, source: 'markdown' })
        .expect(202);
      const runId = res.headers.location.split('/').pop()!;
      for (let i = 0; (await stagedBlobs(runId)).length === 0; i++) {
        if (i > 400) throw new Error('the batch stored no image');
        await new Promise((r) => setTimeout(r, 25));
      }
      const cancelledAt = Date.now();
      await server.as(fx.admin.token).post(`/v1/org/${fx.org.id}/imports/${runId}/cancel`).expect(200);
      const handle = (await server.temporal.getClient()).workflow.getHandle(jobWorkflowId(contentImportJob, runId, 1));
      await handle.result().catch(() => undefined);
      // the workflow awaited the batch, which removed the images it had stored, then removed the rest
      const endedMs = Date.now() - cancelledAt;
      expect(endedMs).toBeLessThan(4000);
      expect(served).toBeLessThan(12);
      const fetched = served;
      await new Promise((r) => setTimeout(r, 1000));
      expect(served).toBe(fetched);
      expect(await stagedBlobs(runId)).toEqual([]);
    } finally {
      gallery.closeAllConnections();
      await new Promise((resolve) => gallery.close(resolve));
    }
  }, 60000);

  it('a different import into the same content supersedes the one under way, which commits nothing', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const first = await impatient
      .as(fx.admin.token)
      .post(importPath(space.id))
      .send({ url: `${slow.base}/site/`, source: 'website' })
      .expect(202);
    const second = await importInto(fx, space.id, { url: `${site.base}/docs/notes.md`, source: 'markdown' }).expect(
      201,
    );
    expect(await runOf(fx, first.headers.location)).toMatchObject({
      status: 'cancelled',
      reason: 'superseded by a newer import into the same content',
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await server.ds.manager.countBy(Revision, { spaceId: space.id, type: 'import' })).toBe(1);
    expect((await content(fx, space.id)).id).toBe(second.body.revision);
  }, 30000);
});
