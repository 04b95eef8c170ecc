/**
 * The content-import steps on real rows and a real blob store: staging and commit are idempotent
 * (run twice: one revision), a cancelled run commits nothing, the page tree follows the staged
 * paths, archives are read within the zip-bomb limits and staged in batches.
 */
import { createHash } from 'crypto';
import http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { ObjectStore } from '../../domain/content/objects';
import { ContentReader } from '../../domain/content/reader';
import { commitImport, discardImport } from '../../domain/imports/commit';
import { contentImportJob } from '../../domain/imports/import-job';
import { linkPlaceholder, linkResolver } from '../../domain/imports/links';
import { planPages } from '../../domain/imports/page-tree';
import { expireImportRuns } from '../../domain/imports/retention';
import { cancelImportRun, requestImport } from '../../domain/imports/runs';
import { readArchive } from '../../domain/imports/sources/zip';
import { type ImportDeps, stageImportBatch } from '../../domain/imports/stage';
import {
  type ImportState,
  imageKey,
  pagesKey,
  readJson,
  StagedBatches,
  type StagedPage,
  sourceKey,
  stateKey,
} from '../../domain/imports/staging';
import { jobRef } from '../../domain/jobs/job-kind';
import { lockJobRow } from '../../domain/jobs/job-lifecycle';
import type { Liveness } from '../../domain/jobs/liveness';
import { ImportRun, type ImportSource } from '../../entities/ImportRun';
import { Revision } from '../../entities/Revision';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { inTransaction } from '../../platform/db/transactions';
import { GuardedFetch } from '../../platform/net/guarded-fetch';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
import { zipOf } from '../support/import-fixtures';
import { pngBytes } from '../support/website';

const server = {} as { ds: DataSource };
let docs: http.Server;
let base: string;
let deps: ImportDeps;
/** archives served by path, and how often each was fetched */
const archives = new Map<string, { body: Buffer; fetched: number }>();
/** paths answered never: the request is reported, then held until the client gives up */
const held = new Map<string, () => void>();

beforeAll(async () => {
  docs = http.createServer((req, res) => {
    const archive = archives.get(req.url ?? '');
    if (archive) {
      archive.fetched++;
      return void res.writeHead(200, { 'Content-Type': 'application/zip' }).end(archive.body);
    }
    const hold = held.get(req.url ?? '');
    if (hold) return hold();
    if (req.url === '/img/one.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(pngBytes(21));
    if (req.url === '/with-images.md')
      return void res
        .writeHead(200, { 'Content-Type': 'text/markdown' })
        .end('# Pictures\n\n![one](/img/one.png)\n\n![two](/img/two.png)\n');
    res.writeHead(200, { 'Content-Type': 'text/markdown' }).end(`# Notes ${req.url}\n\nSome text.\n`);
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  const config = loadConfig();
  server.ds = await createDataSource(config).initialize();
  deps = {
    ...heldBack(server.ds),
    config,
    blobs: createBlobStore(config),
    fetch: new GuardedFetch({ ...config.fetch, allowLoopback: true }),
    logger: pino({ level: 'silent' }),
  };
});

afterAll(async () => {
  await deps.fetch.close();
  await server.ds.destroy();
  docs.closeAllConnections();
  await new Promise((resolve) => docs.close(resolve));
});

async function requested(url: string, source: ImportSource = 'markdown'): Promise<ImportRun> {
  const { org, admin } = await createOrg(server.ds);
  const space = await insertSpace(server.ds, org);
  const { ticket } = await inTransaction(heldBack(server.ds), (db) =>
    requestImport(
      db,
      { space, changeRequest: null, head: { kind: 'space', spaceId: space.id } },
      { url, source },
      admin.user.id,
    ),
  );
  return ticket.row;
}

describe('the content-import steps', () => {
  it('a staged batch run twice and a commit run twice make one revision', async () => {
    const run = await requested(`${base}/notes.md`);
    const ref = jobRef(contentImportJob, run);
    const first = await stageImportBatch(deps, ref, 0);
    expect(first).toEqual({ batches: 1, finished: true, done: 1, total: 1 });
    expect(await stageImportBatch(deps, ref, 0)).toEqual(first);
    const committed = await commitImport(deps, ref, 1);
    expect(committed).toEqual({ revisionId: expect.any(String), importedResources: 1, totalResources: 1 });
    expect(await commitImport(deps, ref, 1)).toEqual(committed);
    expect(await server.ds.manager.countBy(Revision, { spaceId: run.spaceId, type: 'import' })).toBe(1);
    expect(await server.ds.manager.findOneByOrFail(ImportRun, { id: run.id })).toMatchObject({
      revisionId: committed.revisionId,
      importedResources: 1,
    });
    await discardImport(deps, ref, 1);
    await expect(deps.blobs.read(stateKey(run.id, 1))).rejects.toThrow();
  });

  it('a cancelled run commits nothing: its steps find the generation moved on', async () => {
    const run = await requested(`${base}/other.md`);
    const ref = jobRef(contentImportJob, run);
    await stageImportBatch(deps, ref, 0);
    await inTransaction(heldBack(server.ds), async (db) =>
      cancelImportRun(db, (await lockJobRow(db, contentImportJob, run.id))!),
    );
    await expect(commitImport(deps, ref, 1)).rejects.toMatchObject({ code: 'SUPERSEDED' });
    await expect(stageImportBatch(deps, ref, 0)).rejects.toMatchObject({ code: 'SUPERSEDED' });
    expect(await server.ds.manager.countBy(Revision, { spaceId: run.spaceId, type: 'import' })).toBe(0);
  });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the lock an import request takes', () => {
  it('holds no run of another organization: a request does not wait on a run whose step is under way elsewhere', async () => {
    // most runs finished, one under way: the shape that let MariaDB reach rows through processFinishedAt
    const other = await requested(`${base}/other.md`);
    const finished = Array.from({ length: 40 }, (_, i) => ({
      ...other,
      id: `${other.id.slice(0, 15)}f${String(i).padStart(5, '0')}`,
      process: { ...other.process, finishedAt: new Date(), generation: 1 },
    }));
    await server.ds.manager.insert(ImportRun, finished);
    await server.ds.query('ANALYZE TABLE import_runs');
    // a worker's step holds the other organization's run, as begin and finish do
    const step = server.ds.createQueryRunner();
    await step.startTransaction();
    try {
      await lockJobRow(step.manager, contentImportJob, other.id);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'waited'>((resolve) => {
        timer = setTimeout(() => resolve('waited'), 5000);
      });
      const mine = requested(`${base}/mine.md`).then(() => 'requested' as const);
      await expect(Promise.race([mine, waited]).finally(() => clearTimeout(timer))).resolves.toBe('requested');
    } finally {
      await step.rollbackTransaction();
      await step.release();
    }
  });
});

describe('staging in batches', () => {
  const withBatches = (batchPages: number): ImportDeps => ({
    ...deps,
    config: { ...deps.config, imports: { ...deps.config.imports, batchPages } },
  });
  const serve = async (path: string, files: Record<string, Buffer | string>) => {
    archives.set(path, { body: await zipOf(files), fetched: 0 });
    return archives.get(path)!;
  };

  it('a zip stages in batches; a batch run again after a crash starts from the last one saved', async () => {
    const archive = await serve('/batches.zip', {
      'book/README.md': '# Book\n\n![cover](img/cover.png)\n',
      'book/a.md': '# A\n\nSee [b](b.md).\n',
      'book/b.md': '# B\n',
      'book/c.md': '# C\n\n![cover again](img/cover.png) ![other](img/other.png)\n',
      'book/d.md': '# D\n',
      'book/img/cover.png': pngBytes(1),
      'book/img/other.png': pngBytes(2),
    });
    const run = await requested(`${base}/batches.zip`, 'zip');
    const ref = jobRef(contentImportJob, run);
    const two = withBatches(2);

    expect(await stageImportBatch(two, ref, 0)).toEqual({ batches: 1, finished: false, done: 2, total: 5 });
    const saved = await readJson<ImportState>(deps.blobs, stateKey(run.id, 1));
    // the second batch, run twice (its first attempt's worker died): both start from state-1
    const second = await stageImportBatch(two, ref, 1);
    expect(second).toEqual({ batches: 2, finished: false, done: 4, total: 5 });
    expect(await stageImportBatch(two, ref, 1)).toEqual(second);
    const after = await readJson<ImportState>(deps.blobs, stateKey(run.id, 2));
    expect([saved.staged, after.staged]).toEqual([2, 4]);
    // each batch's pages in its own blob; the state holds none of them
    const pagesOf = (batch: number) => readJson<StagedPage[]>(deps.blobs, pagesKey(run.id, batch));
    expect([...(await pagesOf(0)), ...(await pagesOf(1))].map((p) => p.title)).toEqual(['Book', 'A', 'B', 'C']);
    expect(after).not.toHaveProperty('pages');
    expect(await stageImportBatch(two, ref, 2)).toEqual({ batches: 3, finished: true, done: 5, total: 5 });
    // fetched once: later batches read the archive the first one kept
    expect(archive.fetched).toBe(1);
    const last = await readJson<ImportState>(deps.blobs, stateKey(run.id, 3));
    expect(last.files.map((f) => f.name).sort()).toEqual(['cover.png', 'other.png']);

    const committed = await commitImport(two, ref, 3);
    expect(committed).toMatchObject({ importedResources: 5, totalResources: 5 });
    await discardImport(two, ref, 3);
    await expect(deps.blobs.read(sourceKey(run.id))).rejects.toThrow();
    await expect(deps.blobs.read(stateKey(run.id, 2))).rejects.toThrow();
    await expect(deps.blobs.read(pagesKey(run.id, 1))).rejects.toThrow();
    // the committed images stay: the revision references them
    expect(await deps.blobs.read(imageKey(run.id, sha256(pngBytes(2))))).toEqual(pngBytes(2));
  });

  it('the commit reads the staging back a batch at a time, links resolved across batches', async () => {
    await serve('/read-back.zip', {
      'book/README.md': '# Book\n\nStart with [the last one](z.md).\n',
      ...Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`book/p${i}.md`, `# P${i}\n\nBack to [the book](README.md).\n`]),
      ),
      'book/z.md': '# Z\n',
    });
    const run = await requested(`${base}/read-back.zip`, 'zip');
    const ref = jobRef(contentImportJob, run);
    const two = withBatches(2);
    let batches = 0;
    for (let finished = false; !finished; ) ({ batches, finished } = await stageImportBatch(two, ref, batches));
    expect(batches).toBe(5);
    // each pages blob holds its batch's pages with their markdown; the state none of them
    const pages = new StagedBatches(deps.blobs, run.id, batches);
    const refs = await pages.refs();
    expect(refs.map((p) => p.batch)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect(refs[0]).not.toHaveProperty('markdown');
    // in tree order (the staging's here) each batch is read once more, for its markdown
    for (const page of refs) await pages.markdown(page);
    expect(pages.reads).toBe(2 * batches);

    await commitImport(two, ref, batches);
    const { revisionId } = await server.ds.manager.findOneByOrFail(ImportRun, { id: run.id });
    const { root } = await server.ds.manager.findOneByOrFail(Revision, { id: revisionId! });
    const reader = new ContentReader(new ObjectStore(server.ds.manager), root);
    const byTitle = new Map<string, { id: string; markdown: string }>();
    for (const id of await reader.childIds(null)) {
      const { version } = (await reader.page(id))!;
      byTitle.set(version.title, { id, markdown: version.markdown });
    }
    expect(byTitle.size).toBe(10);
    expect(byTitle.get('Book')!.markdown).toContain(`(page:${byTitle.get('Z')!.id})`);
    expect(byTitle.get('P7')!.markdown).toContain(`(page:${byTitle.get('Book')!.id})`);
  });

  it('a batch of a cancelled run removes the images it stored before it stopped', async () => {
    const run = await requested(`${base}/with-images.md`);
    const ref = jobRef(contentImportJob, run);
    const controller = new AbortController();
    const live: Liveness = { signal: controller.signal, heartbeat: () => controller.signal.throwIfAborted() };
    const fetching = new Promise<void>((resolve) => held.set('/img/two.png', resolve));
    const staged = stageImportBatch(deps, ref, 0, live);
    // the first image is stored, the second under way: the run is cancelled, and its activity with it
    await fetching;
    await inTransaction(heldBack(server.ds), async (db) =>
      cancelImportRun(db, (await lockJobRow(db, contentImportJob, run.id))!),
    );
    controller.abort(new Error('cancelled'));
    await expect(staged).rejects.toThrow();
    await expect(deps.blobs.read(imageKey(run.id, sha256(pngBytes(21))))).rejects.toThrow();
    await expect(deps.blobs.read(stateKey(run.id, 1))).rejects.toThrow();
  });
});

describe('retention', () => {
  it('removes runs finished longer ago than IMPORT_RETENTION_SECONDS, and keeps the others', async () => {
    const old = await requested(`${base}/old.md`);
    const recent = await requested(`${base}/recent.md`);
    const now = new Date();
    const longAgo = new Date(now.getTime() - (loadConfig().imports.retentionSeconds + 60) * 1000);
    await server.ds.manager.update(ImportRun, { id: old.id }, { process: { finishedAt: longAgo } });
    await server.ds.manager.update(ImportRun, { id: recent.id }, { process: { finishedAt: now } });
    expect(await expireImportRuns(server.ds.manager, loadConfig(), now)).toBeGreaterThanOrEqual(1);
    expect(await server.ds.manager.findOneBy(ImportRun, { id: old.id })).toBeNull();
    expect(await server.ds.manager.findOneBy(ImportRun, { id: recent.id })).not.toBeNull();
  });
});

describe('the page tree', () => {
  it('follows the staged paths: folder pages for paths without a page, a folder taken over by its page', () => {
    const page = (id: string, path: string[], title: string, batch: number) => ({
      id,
      path,
      title,
      source: null,
      batch,
    });
    const planned = planPages([
      page('home', [], 'Home', 0),
      page('deep', ['guide', 'setup', 'linux'], 'Linux', 0),
      page('guide', ['guide'], 'Guide', 1),
      page('same', ['guide'], 'Guide again', 1),
    ]);
    expect(
      planned.map((p) => [
        p.title,
        p.parentId === null ? null : planned.find((q) => q.id === p.parentId)!.title,
        p.batch,
      ]),
    ).toEqual([
      ['Home', null, 0],
      ['Guide', null, 1],
      ['Setup', 'Guide', null],
      ['Linux', 'Setup', 0],
      ['Guide again', null, 1],
    ]);
  });

  it('resolves links between staged documents: a page link when the target was imported, else the address', () => {
    const link = (target: string, href: string, hash: string) => linkPlaceholder('n0', { target, href, hash });
    const markdown = `See [guide](${link('https://x/docs/guide', 'https://x/docs/guide/', '#top')}) and [gone](${link('https://x/docs/gone', 'https://x/docs/gone', '')}), not x-import-other:0.`;
    const resolve = linkResolver('n0', (target) => (target === 'https://x/docs/guide' ? 'guide' : undefined));
    expect(resolve(markdown)).toBe(
      'See [guide](page:guide#top) and [gone](https://x/docs/gone), not x-import-other:0.',
    );
  });
});

describe('archives', () => {
  const limits = { maxEntries: 10, maxBytes: 10_000 };

  it('reads files by path, leaving out folders, dotfiles and __MACOSX', async () => {
    const files = await readArchive(
      await zipOf({ 'a/b.md': 'B', '.git/config': 'x', '__MACOSX/a/._b.md': 'x', 'a/.hidden': 'x' }),
      limits,
    );
    expect([...files.keys()]).toEqual(['a/b.md']);
    expect(files.get('a/b.md')!.toString()).toBe('B');
  });

  it('refuses archives beyond the limits (LIMIT_EXCEEDED) and what is no archive (PARSE_ERROR)', async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`${i}.md`, 'x']));
    await expect(readArchive(await zipOf(many), limits)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: 'the archive holds 11 entries; at most 10 are read',
    });
    await expect(readArchive(await zipOf({ 'big.md': 'x'.repeat(10_001) }), limits)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    await expect(readArchive(Buffer.from('not a zip'), limits)).rejects.toMatchObject({ code: 'PARSE_ERROR' });
  });

  it('takes 10,000 markdown files with their images at the default limits; an archive past IMPORT_MAX_ARCHIVE_ENTRIES is refused, naming it', async () => {
    const { maxPages, maxArchiveEntries, maxBytes } = loadConfig().imports;
    expect(maxPages).toBe(10_000);
    const files: Record<string, Buffer | string> = {};
    for (let n = 0; n < 10_000; n++) files[`book/part-${Math.floor(n / 100)}/topic-${n}.md`] = `# Topic ${n}\n`;
    for (let i = 0; i < 20; i++) files[`book/images/figure-${i}.png`] = pngBytes(i);
    const defaults = { maxEntries: maxArchiveEntries, maxBytes };
    const archive = await zipOf(files);
    expect((await readArchive(archive, defaults)).size).toBe(10_020);
    // the same archive saying it holds one entry more than the limit (the end record's entry count, at offset 10)
    const past = Buffer.from(archive);
    past.writeUInt16LE(maxArchiveEntries + 1, past.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) + 10);
    await expect(readArchive(past, defaults)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: `the archive holds ${maxArchiveEntries + 1} entries; at most ${maxArchiveEntries} are read`,
    });
  }, 60_000);

  it('refuses an entry whose bytes exceed the size its header declares (a lying zip bomb)', async () => {
    const honest = await zipOf({ 'a.md': 'x'.repeat(5000) });
    // the central directory's uncompressed size of the one entry (offset 24 in its record) says 10 bytes
    const lying = Buffer.from(honest);
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(10, central + 24);
    await expect(readArchive(lying, limits)).rejects.toMatchObject({
      code: 'PARSE_ERROR',
      message: expect.stringMatching(/too many bytes|expected|size/i),
    });
  });
});

describe('a Word document', () => {
  it('whose XML parts hold more than 3,000,000 bytes is LIMIT_EXCEEDED before mammoth reads them', async () => {
    // 20 KB of zip; mammoth took 1.1 GB on 5 MB of such text
    const paragraphs = '<w:p><w:r><w:t>x</w:t></w:r></w:p>'.repeat(90_000);
    archives.set('/long.docx', {
      body: await zipOf({ 'word/document.xml': `<w:document><w:body>${paragraphs}</w:body></w:document>` }),
      fetched: 0,
    });
    const run = await requested(`${base}/long.docx`, 'docx');
    await expect(stageImportBatch(deps, jobRef(contentImportJob, run), 0)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: `${base}/long.docx: the document's XML holds more than 3000000 bytes`,
    });
  });
});
