/**
 * GET …/change-requests/{changeRequestId}/pdf and GET /spaces/{spaceId}/pdf end to end: the API, a real
 * worker on a private task queue, MariaDB and the local blob store. Every PDF is downloaded through its
 * signed URL and read back with pdf.js: the sheets' text, the outline and the images painted.
 */

import { GitBookAPI } from '@gitbook/api';
import { once } from 'events';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { IsNull } from 'typeorm';
import { deflateSync } from 'zlib';
import { requestJob } from '../../domain/jobs/job-lifecycle';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { expireJobs } from '../../domain/jobs/kinds';
import { pdfExportJob } from '../../domain/pdf/export-job';
import { pdfExportId } from '../../domain/pdf/exports';
import { pdfFileKey } from '../../domain/pdf/files';
import { idleJobState } from '../../entities/JobState';
import { PdfExport } from '../../entities/PdfExport';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { Actor, addMember, createOrg, OrgFixture } from '../factories';
import { Json, newChangeRequest, newSpace } from '../support/api';
import { download, png, pngFile, upload } from '../support/content-forms';
import { heldBack } from '../support/held-back';
import { OutlineNode, ReadPdf, readPdf } from '../support/pdf';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

let server: TestServer;
let impatient: TestServer;
let worker: TestWorker;

// renders share two cores with the rest of the suite: room for a slow render, and a heartbeat timeout a
// busy event loop cannot miss (the short default would fail a healthy render under load)
jest.setTimeout(180000);

beforeAll(async () => {
  const short = shortJobRetries(privateTaskQueue(loadConfig()));
  const config = {
    ...short,
    jobs: { ...short.jobs, retry: { ...short.jobs.retry, maximumAttempts: 3, heartbeatTimeoutMs: 30000 } },
    // every PDF here takes a few sheets; the PDF_MAX_SHEETS test passes this one
    pdf: { ...short.pdf, maxSheets: 60 },
  };
  server = await startServer({ ...config, pdf: { ...config.pdf, waitSeconds: 60 } });
  // the same task queue, but an API that never waits for a render
  impatient = await startServer({ ...config, pdf: { ...config.pdf, waitSeconds: 0, retryAfterSeconds: 2 } });
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await impatient?.close();
  await server?.close();
});

const GUIDE = `Intro with **bold words**, *italic words*, \`inline code\` and [a link](https://example.com/docs).

## Requirements

- Node.js 20 or later
- A terminal
  1. bash
  2. zsh

## Install

\`\`\`bash
npm install docs-cli
docs-cli init --name demo
\`\`\`

| Option | Default |
|---|---|
| --name | untitled |
| --port | 8080 |

> Quoted advice.

{% hint style="warning" %}
Back up first.
{% endhint %}
`;

interface Tour {
  fx: OrgFixture;
  space: Json;
  changeRequest: Json;
  /** page ids by title */
  pages: Record<string, string>;
  prefix: string;
}

/**
 * A space with Guide (and its child Details) and Reference, and a change request that edits Guide
 * and adds Changelog under Reference: the tree order is Guide, Details, Reference, Changelog.
 */
async function tour(): Promise<Tour> {
  const fx = await createOrg(server.ds);
  const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Docs Ωmega' });
  const create = async (prefix: string, body: object) =>
    (await server.as(fx.admin.token).post(`${prefix}/pages`).send(body).expect(201)).body.id as string;
  const spaceContent = `/v1/spaces/${space.id}/content`;
  const guide = await create(spaceContent, { title: 'Guide', markdown: 'Old guide.\n' });
  const details = await create(spaceContent, {
    title: 'Details',
    parent: guide,
    markdown: '## Fine print\n\nDetails text.\n',
  });
  const reference = await create(spaceContent, { title: 'Reference', markdown: '# API\n\nReference text.\n' });
  const changeRequest = await newChangeRequest(server, fx.admin, space.id, { subject: 'Rewrite the guide' });
  const prefix = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
  await server.as(fx.admin.token).patch(`${prefix}/page/${guide}`).send({ markdown: GUIDE }).expect(200);
  const changelog = await create(prefix, {
    title: 'Changelog',
    parent: reference,
    markdown: 'Greek Καλημέρα, Cyrillic Привет, Chinese 你好.\n',
  });
  return {
    fx,
    space,
    changeRequest,
    pages: { Guide: guide, Details: details, Reference: reference, Changelog: changelog },
    prefix,
  };
}

const pdfPath = (t: Tour) => `/v1/spaces/${t.space.id}/change-requests/${t.changeRequest.id}/pdf`;

async function fetchPdf(
  t: Tour,
  query: Record<string, string> = {},
  actor: Actor = t.fx.admin,
): Promise<{ url: string; pdf: ReadPdf; bytes: Buffer }> {
  const res = await server.as(actor.token).get(pdfPath(t)).query(query).expect(200);
  expect(Object.keys(res.body)).toEqual(['url']);
  const file = await download(server, res.body.url).expect(200);
  expect(file.headers['content-type']).toBe('application/pdf');
  return { url: res.body.url, pdf: await readPdf(file.body), bytes: file.body };
}

/** The sheet (0-based) on which each page title opens its page: its first line. */
function firstSheets(pdf: ReadPdf, titles: string[]): Record<string, number> {
  return Object.fromEntries(
    titles.map((title) => [title, pdf.sheets.findIndex((text, i) => i > 1 && text.startsWith(`${title}\n`))]),
  );
}

const titlesOf = (nodes: OutlineNode[]): string[] => nodes.map((n) => n.title);
const exportsOf = (t: Tour) => server.ds.manager.findBy(PdfExport, { changeRequestId: t.changeRequest.id });

describe('change request PDF', () => {
  it('renders every page in tree order after a title page and a table of contents, with bookmarks and footers', async () => {
    const t = await tour();
    const { url, pdf } = await fetchPdf(t);
    expect(url).toMatch(new RegExp(`^${server.config.publicBaseUrl}/v1/blobs/pdf/`));
    expect(new URL(url).searchParams.get('filename')).toBe('Docs Ωmega - change request 1.pdf');

    expect(pdf.sheets[0]).toContain('Docs Ωmega');
    expect(pdf.sheets[0]).toContain('Change request #1: Rewrite the guide');
    const order = ['Guide', 'Details', 'Reference', 'Changelog'];
    const sheets = firstSheets(pdf, order);
    const starts = order.map((title) => sheets[title]);
    expect(starts.every((s) => s > 1)).toBe(true);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);

    // the contents list every page with the number of the sheet it starts on
    expect(pdf.sheets[1]).toMatch(/^Contents\n/);
    for (const title of order) expect(pdf.sheets[1]).toMatch(new RegExp(`${title}\\s+${sheets[title] + 1}\\n`));

    const guide = pdf.sheets.slice(sheets.Guide, sheets.Details).join('\n');
    expect(guide).toContain('Intro with bold words, italic words, inline code and a link');
    expect(guide).toMatch(/Requirements\n/);
    expect(guide).toMatch(/•\s*Node\.js 20 or later/);
    expect(guide).toMatch(/1\.\s*bash\n[\s\S]*2\.\s*zsh/);
    expect(guide).toContain('npm install docs-cli\ndocs-cli init --name demo');
    expect(guide).toMatch(/Option\s+Default\n--name\s+untitled\n--port\s+8080/);
    expect(guide).toContain('Quoted advice.');
    expect(guide).toMatch(/Warning\nBack up first\./);
    expect(guide).not.toContain('Old guide.');
    expect(pdf.sheets.join('\n')).not.toContain('{% hint');

    // Greek and Cyrillic drawn, Chinese (no glyphs in the fonts) visibly replaced
    const changelog = pdf.sheets[sheets.Changelog];
    expect(changelog).toContain('Greek Καλημέρα, Cyrillic Привет, Chinese \uFFFD\uFFFD.');

    // bookmarks: the contents, then the pages nested as the tree, each with its headings
    expect(titlesOf(pdf.outline)).toEqual(['Contents', 'Guide', 'Reference']);
    const [, guideItem, referenceItem] = pdf.outline;
    expect(titlesOf(guideItem.items)).toEqual(['Requirements', 'Install', 'Details']);
    expect(titlesOf(guideItem.items[2].items)).toEqual(['Fine print']);
    expect(titlesOf(referenceItem.items)).toEqual(['API', 'Changelog']);

    // "n / total" in the footer of every sheet but the title page
    const total = pdf.sheets.length;
    expect(pdf.sheets[0]).not.toContain(`1 / ${total}`);
    for (let i = 1; i < total; i++) expect(pdf.sheets[i]).toContain(`${i + 1} / ${total}`);
  });

  it('renders a page with its descendants, or with `only` that page alone', async () => {
    const t = await tour();
    const subtree = (await fetchPdf(t, { page: t.pages.Reference })).pdf;
    expect(subtree.sheets[0]).toContain('The page “Reference” and its sub-pages');
    expect(titlesOf(subtree.outline)).toEqual(['Contents', 'Reference']);
    expect(titlesOf(subtree.outline[1].items)).toEqual(['API', 'Changelog']);
    const text = subtree.sheets.join('\n');
    expect(text).toContain('Reference text.');
    expect(text).toContain('Greek Καλημέρα');
    expect(text).not.toContain('Guide');

    const alone = (await fetchPdf(t, { page: t.pages.Reference, only: 'true' })).pdf;
    expect(alone.sheets[0]).toContain('The page “Reference” alone');
    expect(titlesOf(alone.outline)).toEqual(['Contents', 'Reference']);
    expect(titlesOf(alone.outline[1].items)).toEqual(['API']);
    expect(alone.sheets).toHaveLength(3);
    expect(alone.sheets[2]).toMatch(/^Reference\n[\s\S]*API\n[\s\S]*Reference text\./);
    expect(alone.sheets.join('\n')).not.toContain('Changelog');

    // `only=false` is the same export as no `only`
    await fetchPdf(t, { page: t.pages.Reference, only: 'false' });
    expect((await exportsOf(t)).map((e) => [e.pageId, e.only]).sort()).toEqual([
      [t.pages.Reference, false],
      [t.pages.Reference, true],
    ]);
  });

  it('reuses the file of an unchanged change request and renders a new revision anew', async () => {
    const t = await tour();
    const first = await fetchPdf(t, { page: t.pages.Guide });
    const [row] = await exportsOf(t);
    expect(row).toMatchObject({ fileKey: pdfFileKey(row.id), render: { generation: 1, errorCode: null } });

    const again = await server.as(t.fx.admin.token).get(pdfPath(t)).query({ page: t.pages.Guide }).expect(200);
    expect(new URL(again.body.url).pathname).toBe(new URL(first.url).pathname);
    const [reused] = await exportsOf(t);
    // the same row: no new generation, no new run, the file not written again
    expect(reused.render).toEqual(row.render);
    expect(reused.lastRequestedAt.getTime()).toBeGreaterThan(row.lastRequestedAt.getTime());
    const client = await server.temporal.getClient();
    let runs = 0;
    for await (const _ of client.workflow.list({ query: `ResourceId="${row.id}"` })) runs++;
    expect(runs).toBe(1);

    await server
      .as(t.fx.admin.token)
      .patch(`${t.prefix}/page/${t.pages.Guide}`)
      .send({ markdown: 'The guide, rewritten again.\n' })
      .expect(200);
    const second = await fetchPdf(t, { page: t.pages.Guide });
    expect(second.pdf.sheets.join('\n')).toContain('The guide, rewritten again.');
    const rows = await exportsOf(t);
    expect(rows).toHaveLength(2);
    const renewed = rows.find((r) => r.id !== row.id)!;
    expect(renewed.revisionId).not.toBe(row.revisionId);
    expect(renewed.id).toBe(
      pdfExportId(t.changeRequest.id, renewed.revisionId, { pageId: t.pages.Guide, only: false }),
    );
  });

  it('embeds PNG and JPEG files of the space and names the images it cannot show', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const content = `/v1/spaces/${space.id}/content`;
    const logo = (await upload(server, fx.admin.token, content, 'logo.png', png(640, 320), 'image/png').expect(201))
      .body.id;
    const photo = (await upload(server, fx.admin.token, content, 'photo.jpg', jpeg(), 'image/jpeg').expect(201)).body
      .id;
    const broken = (
      await upload(server, fx.admin.token, content, 'broken.png', corruptAlphaPng(), 'image/png').expect(201)
    ).body.id;
    const changeRequest = await newChangeRequest(server, fx.admin, space.id);
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`)
      .send({
        title: 'Pictures',
        markdown: `![The logo](file:${logo})\n\n![A photo](file:${photo})\n\n![Again](file:${logo})\n\n![Broken](file:${broken})\n\n![Remote](https://example.com/x.png)\n`,
      })
      .expect(201);
    const t = { fx, space, changeRequest } as Tour;
    const { pdf, bytes } = await fetchPdf(t);
    expect(pdf.images.reduce((a, b) => a + b, 0)).toBe(3);
    // one image object per file, however often it is shown
    expect(bytes.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(2);
    const text = pdf.sheets.join('\n');
    expect(text).toContain('The logo');
    expect(text).toContain('[image: Broken]');
    expect(text).toContain('[image: Remote]');
  });

  it('a PNG decompression bomb, declared as a PNG or as a JPEG, is named and never decoded', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const content = `/v1/spaces/${space.id}/content`;
    // 1×1 RGB by its header, 16 MB once inflated: 16 KB of file
    const header = Buffer.alloc(13);
    header.writeUInt32BE(1, 0);
    header.writeUInt32BE(1, 4);
    header[8] = 8;
    header[9] = 2;
    const bomb = pngFile(header, deflateSync(Buffer.alloc(16 * 1024 * 1024)));
    const uploaded = async (name: string, bytes: Buffer, type: string) =>
      (await upload(server, fx.admin.token, content, name, bytes, type).expect(201)).body.id as string;
    const logo = await uploaded('logo.png', png(64, 32), 'image/png');
    const asPng = await uploaded('bomb.png', bomb, 'image/png');
    // pdfkit tells a format by its bytes, not by the declared type
    const asJpeg = await uploaded('bomb.jpg', bomb, 'image/jpeg');
    const changeRequest = await newChangeRequest(server, fx.admin, space.id);
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`)
      .send({
        title: 'Bombs',
        markdown: `![The logo](file:${logo})\n\n![Bomb](file:${asPng})\n\n![Disguised](file:${asJpeg})\n`,
      })
      .expect(201);
    const { pdf } = await fetchPdf({ fx, space, changeRequest } as Tour);
    expect(pdf.images.reduce((a, b) => a + b, 0)).toBe(1);
    const text = pdf.sheets.join('\n');
    expect(text).toContain('[image: Bomb]');
    expect(text).toContain('[image: Disguised]');
  });

  it('answers 202 with Retry-After while the render runs past the configured wait, then the URL', async () => {
    const t = await tour();
    const res = await impatient.as(t.fx.admin.token).get(pdfPath(t)).expect(202);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.body).toMatchObject({
      status: expect.stringMatching(/^(pending|running)$/),
      progress: { done: expect.any(Number) },
      retryAfter: 2,
      job: { id: expect.any(String), workflowId: expect.stringMatching(/^pdf-export\/[A-Za-z0-9_-]+\/1$/) },
    });
    expect(res.body.job.workflowId).toBe(`pdf-export/${res.body.job.id}/1`);
    expect(Object.keys(res.body.progress)).toEqual(['done', 'total']);
    let answer = res;
    for (let i = 0; i < 100 && answer.status === 202; i++) {
      await new Promise((r) => setTimeout(r, 200));
      answer = await impatient.as(t.fx.admin.token).get(pdfPath(t));
    }
    expect(answer.status).toBe(200);
    expect(answer.body.url).toMatch(/\/v1\/blobs\/pdf\//);
  });

  it('answers every one of several identical requests made at once with 202 or the URL, and renders once', async () => {
    const t = await tour();
    const answers = await Promise.all(Array.from({ length: 6 }, () => impatient.as(t.fx.admin.token).get(pdfPath(t))));
    expect(answers.map((a) => (a.status === 200 ? 202 : a.status))).toEqual(Array(6).fill(202));
    const rows = await exportsOf(t);
    expect(rows.map((r) => r.render.generation)).toEqual([1]);
  });

  it('records a failed render on the row and answers 503, and a new request renders again', async () => {
    const t = await tour();
    const { revision } = (
      await server
        .as(t.fx.admin.token)
        .get(`/v1/spaces/${t.space.id}/change-requests/${t.changeRequest.id}`)
        .expect(200)
    ).body;
    const id = pdfExportId(t.changeRequest.id, revision, { pageId: null, only: false });
    // an export whose revision is gone (as after a purge): collecting fails permanently
    const now = new Date();
    await server.ds.manager.insert(PdfExport, {
      id,
      organizationId: t.fx.org.id,
      spaceId: t.space.id,
      changeRequestId: t.changeRequest.id,
      revisionId: 'gone-revision',
      pageId: null,
      only: false,
      fileKey: null,
      filePages: null,
      fileBytes: null,
      createdAt: now,
      lastRequestedAt: now,
      render: idleJobState(),
    });
    const ticket = await inTransaction(heldBack(server.ds), async (db) =>
      requestJob(db, pdfExportJob, await db.findOneByOrFail(PdfExport, { id })),
    );
    await applyJobTicket(server.temporal, server.ds.manager, ticket, pino({ level: 'silent' }));
    const client = await server.temporal.getClient();
    await expect(client.workflow.getHandle(`pdf-export/${id}/1`).result()).rejects.toThrow();
    const failed = await server.ds.manager.findOneByOrFail(PdfExport, { id });
    expect(failed.render).toMatchObject({
      errorCode: 'PDF_SOURCE_GONE',
      errorMessages: [{ message: 'the change request or its revision no longer exists' }],
    });

    // a new request asks for another run (generation 2), which fails the same way within the wait
    const res = await server.as(t.fx.admin.token).get(pdfPath(t)).expect(503);
    expect(res.headers['retry-after']).toBe(String(server.config.pdf.retryAfterSeconds));
    expect(res.body).toEqual({
      error: {
        code: 503,
        message: 'the PDF could not be rendered (PDF_SOURCE_GONE: the change request or its revision no longer exists)',
      },
    });
    expect((await server.ds.manager.findOneByOrFail(PdfExport, { id })).render.generation).toBe(2);

    // once the revision is back, the next request renders it
    await server.ds.manager.update(PdfExport, { id }, { revisionId: revision });
    await fetchPdf(t);
    expect((await server.ds.manager.findOneByOrFail(PdfExport, { id })).render).toMatchObject({
      generation: 3,
      errorCode: null,
    });
  });

  it('a PDF past PDF_MAX_SHEETS fails PDF_TOO_LARGE, answered 413 and written nowhere', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const changeRequest = await newChangeRequest(server, fx.admin, space.id);
    // ~4,000 lines of text: more than 60 sheets, from 250 KB of markdown
    const paragraph = 'A sentence that fills part of a line, and then some more words to wrap it. '.repeat(4);
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`)
      .send({ title: 'Long', markdown: `${paragraph}\n\n`.repeat(800) })
      .expect(201);
    const t = { fx, space, changeRequest } as Tour;
    const res = await server.as(fx.admin.token).get(pdfPath(t)).expect(413);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body).toEqual({
      error: {
        code: 413,
        message: 'the PDF could not be rendered (PDF_TOO_LARGE: the PDF would have more than 60 sheets)',
      },
    });
    const [row] = await exportsOf(t);
    expect(row).toMatchObject({ fileKey: null, render: { errorCode: 'PDF_TOO_LARGE' } });
    await expect(createBlobStore(server.config).read(pdfFileKey(row.id))).rejects.toThrow();
  });

  it('checks its query, the token, and who may see the change request', async () => {
    const t = await tour();
    const get = (query: Record<string, string>, token = t.fx.admin.token) =>
      server.as(token).get(pdfPath(t)).query(query);
    expect((await get({ only: 'true' }).expect(400)).body.error.message).toBe('only: true needs a page');
    expect((await get({ only: 'yes', page: t.pages.Guide }).expect(400)).body.error.message).toMatch(/^only: /);
    expect((await get({ page: 'not an id!' }).expect(400)).body.error.message).toMatch(/^page: must be an id/);
    expect((await get({ page: 'x'.repeat(20) }).expect(400)).body.error.message).toBe(
      "page: must be a page of the change request's revision",
    );

    // a page of another space is not a page of this revision either
    const other = await newSpace(server, t.fx.admin, t.fx.org.id);
    const foreign = (
      await server
        .as(t.fx.admin.token)
        .post(`/v1/spaces/${other.id}/content/pages`)
        .send({ title: 'Elsewhere' })
        .expect(201)
    ).body.id;
    expect((await get({ page: foreign }).expect(400)).body.error.message).toBe(
      "page: must be a page of the change request's revision",
    );
    // nor is a page the change request deleted
    await server.as(t.fx.admin.token).delete(`${t.prefix}/page/${t.pages.Details}`).expect(204);
    await get({ page: t.pages.Details }).expect(400);
    expect(await exportsOf(t)).toEqual([]);

    await server.as('').get(pdfPath(t)).expect(401);
    const outsider = await createOrg(server.ds);
    expect((await get({}, outsider.admin.token).expect(404)).body.error.message).toBe('space not found');
    const guest = await addMember(server.ds, t.fx.org, null);
    expect((await get({}, guest.token).expect(404)).body.error.message).toBe('space not found');
    await server.as(t.fx.admin.token).get(`/v1/spaces/${t.space.id}/change-requests/999/pdf`).expect(404);

    // `view` is all it takes: a reader gets the PDF
    const reader = await addMember(server.ds, t.fx.org, 'read');
    await fetchPdf(t, { page: t.pages.Reference, only: 'true' }, reader);
  });

  it('removes exports nobody asked for during the retention, with their files', async () => {
    const t = await tour();
    await fetchPdf(t, { page: t.pages.Reference, only: 'true' });
    await fetchPdf(t, { page: t.pages.Guide, only: 'true' });
    const [old, recent] = await exportsOf(t);
    const blobs = createBlobStore(server.config);
    const { retentionSeconds, urlTtlSeconds } = server.config.pdf;
    const now = new Date();
    await server.ds.manager.update(
      PdfExport,
      { id: old.id },
      { lastRequestedAt: new Date(now.getTime() - (Math.max(retentionSeconds, urlTtlSeconds) + 1) * 1000) },
    );
    const removed = await expireJobs(server.ds.manager, server.config, blobs, now);
    expect(removed['pdf-export']).toBeGreaterThanOrEqual(1);
    expect(await server.ds.manager.findOneBy(PdfExport, { id: old.id })).toBeNull();
    await expect(blobs.read(pdfFileKey(old.id))).rejects.toThrow();
    expect(await server.ds.manager.findOneBy(PdfExport, { id: recent.id })).not.toBeNull();
    await expect(blobs.read(pdfFileKey(recent.id))).resolves.toBeInstanceOf(Buffer);
  });
});

describe('space PDF', () => {
  /** GitBook's client against the server, listening on a port of its own for one test. */
  async function withClient<T>(token: string, use: (api: GitBookAPI) => Promise<T>): Promise<T> {
    const listener = createServer((req, res) => server.app(req, res)).listen(0, '127.0.0.1');
    await once(listener, 'listening');
    try {
      const endpoint = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      return await use(new GitBookAPI({ endpoint, authToken: token }));
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  }
  const spaceExports = (t: Tour) =>
    server.ds.manager.findBy(PdfExport, { spaceId: t.space.id, changeRequestId: IsNull() });

  it("renders the space's current revision, not its change requests', and a page alone; reuses an unchanged one", async () => {
    const t = await tour();
    const reader = await addMember(server.ds, t.fx.org, 'read');
    const { url } = (await withClient(reader.token, (api) => api.spaces.getSpacePdf(t.space.id))).data;
    expect(new URL(url!).searchParams.get('filename')).toBe('Docs Ωmega.pdf');
    const pdf = await readPdf((await download(server, url!).expect(200)).body);
    expect(pdf.sheets[0]).toContain('Docs Ωmega');
    expect(pdf.sheets[0]).toContain('The content of the space');
    expect(titlesOf(pdf.outline)).toEqual(['Contents', 'Guide', 'Reference']);
    const text = pdf.sheets.join('\n');
    expect(text).toContain('Old guide.');
    expect(text).not.toContain('Changelog');
    const { revisionId } = await server.ds.manager.findOneByOrFail(Space, { id: t.space.id });
    expect((await spaceExports(t)).map((e) => [e.revisionId, e.pageId, e.only])).toEqual([[revisionId, null, false]]);

    const path = `/v1/spaces/${t.space.id}/pdf`;
    const alone = await server.as(reader.token).get(path).query({ page: t.pages.Reference, only: 'true' }).expect(200);
    const alonePdf = await readPdf((await download(server, alone.body.url).expect(200)).body);
    expect(alonePdf.sheets[0]).toContain('The page “Reference” alone');
    expect(alonePdf.sheets).toHaveLength(3);
    const again = await server.as(reader.token).get(path).query({ page: t.pages.Reference, only: 'true' }).expect(200);
    expect(new URL(again.body.url).pathname).toBe(new URL(alone.body.url).pathname);

    // a new revision of the space is a new export
    await server
      .as(t.fx.admin.token)
      .patch(`/v1/spaces/${t.space.id}/content/page/${t.pages.Reference}`)
      .send({ markdown: 'New reference.\n' })
      .expect(200);
    const edited = await server.as(reader.token).get(path).query({ page: t.pages.Reference, only: 'true' }).expect(200);
    const editedText = (await readPdf((await download(server, edited.body.url).expect(200)).body)).sheets.join('\n');
    expect(editedText).toContain('New reference.');
    expect(await spaceExports(t)).toHaveLength(3);
    // the change request's exports are apart
    expect(await exportsOf(t)).toEqual([]);
  });

  it('checks its query, the token, and who may see the space', async () => {
    const t = await tour();
    const path = `/v1/spaces/${t.space.id}/pdf`;
    const get = (query: Record<string, string>, token = t.fx.admin.token) => server.as(token).get(path).query(query);
    expect((await get({ only: 'true' }).expect(400)).body.error.message).toBe('only: true needs a page');
    expect((await get({ only: 'yes', page: t.pages.Guide }).expect(400)).body.error.message).toMatch(/^only: /);
    // a page only the change request has
    expect((await get({ page: t.pages.Changelog }).expect(400)).body.error.message).toBe(
      "page: must be a page of the space's revision",
    );
    expect(await spaceExports(t)).toEqual([]);
    await server.as('').get(path).expect(401);
    const outsider = await createOrg(server.ds);
    expect((await get({}, outsider.admin.token).expect(404)).body.error.message).toBe('space not found');
    const guest = await addMember(server.ds, t.fx.org, null);
    expect((await get({}, guest.token).expect(404)).body.error.message).toBe('space not found');
  });
});

/** An 8×6 baseline JPEG (made once with an encoder; pdfkit embeds JPEG data as it is). */
function jpeg(): Buffer {
  return Buffer.from(
    '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAGAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCEAeon/9k=',
    'base64',
  );
}

/** A PNG with an alpha channel whose pixel data is not a zlib stream: pdfkit would fail to decode it asynchronously. */
function corruptAlphaPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(16, 0);
  header.writeUInt32BE(16, 4);
  header[8] = 8;
  header[9] = 6; // RGBA
  return pngFile(header, Buffer.from('definitely not deflate data'));
}
