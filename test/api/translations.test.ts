/**
 * Translations end to end over the real API and a real worker with the `pseudo` provider: the six
 * operations with their validation and access rules, a 50-page space translated markdown-aware, and
 * the incremental second run.
 */
import request from 'supertest';
import { pageTextHash, translatablePage } from '../../domain/translations/page-text';
import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import { TranslationPage } from '../../entities/TranslationPage';
import { loadConfig } from '../../platform/config';
import { addMember, createOrg } from '../factories';
import { newSpace } from '../support/api';
import { grant } from '../support/content';
import { readRevision, writeHead } from '../support/heads';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';
import { editPages, settled, spacePages, spaceWithPages, translationsPath } from '../support/translations';

let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  const base = loadConfig();
  server = await startServer(
    // a few pages per revision, so every run here writes its result in several commits
    shortJobRetries(
      privateTaskQueue({ ...base, translation: { ...base.translation, provider: 'pseudo', applyPagesPerCommit: 4 } }),
    ),
  );
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

const DOCUMENT = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [
    { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] },
  ],
});

async function setUp() {
  const fx = await createOrg(server.ds);
  const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Guide' });
  return { ...fx, space };
}

function create(token: string, orgId: string, spaceId: string, extra: object = {}) {
  return server
    .as(token)
    .post(translationsPath(orgId))
    .send({ language: 'fr', source: { space: spaceId, language: 'en' }, ...extra });
}

describe('the six operations', () => {
  it('creates (201, first run pending), gets, lists, replaces instructions, runs again (204) and deletes (204, the result space stays)', async () => {
    const { org, admin, space } = await setUp();
    const res = await create(admin.token, org.id, space.id, { instructions: DOCUMENT('Use a formal tone.') }).expect(
      201,
    );
    const created = res.body;
    expect(res.headers.location).toBe(created.urls.location);
    expect(created).toEqual({
      object: 'translation',
      id: expect.any(String),
      status: 'pending',
      source: { space: space.id, language: 'en' },
      language: 'fr',
      instructions: {
        object: 'document',
        data: { schemaVersion: 1 },
        nodes: [expect.objectContaining({ type: 'paragraph' })],
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      stats: {
        runs: 0,
        totalWords: 0,
        totalPages: 0,
        totalDuration: 0,
        latestRunDuration: 0,
        latestPages: 0,
        latestWords: 0,
      },
      error: null,
      permissions: { view: true, edit: true },
      urls: { location: `${server.config.publicBaseUrl}/v1/orgs/${org.id}/translations/${created.id}` },
    });

    const done = await settled(server, admin, org.id, created.id);
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ space: expect.any(String), revision: expect.any(String), language: 'fr' });
    expect(done.stats).toMatchObject({ runs: 1, latestPages: 0, totalPages: 0 });
    const result = (await server.as(admin.token).get(`/v1/spaces/${done.result.space}`).expect(200)).body;
    expect(result).toMatchObject({
      title: 'Guide (fr)',
      language: 'fr',
      revision: done.result.revision,
    });
    // beside the source space: at the root too (no parent)
    expect(result.parent).toBe(space.parent);

    expect((await server.as(admin.token).get(translationsPath(org.id, created.id)).expect(200)).body).toEqual(done);
    const list = (await server.as(admin.token).get(translationsPath(org.id)).expect(200)).body;
    expect(list).toEqual({ items: [done], count: 1 });

    const updated = (
      await server
        .as(admin.token)
        .put(translationsPath(org.id, created.id))
        .send({ instructions: DOCUMENT('Tutoyez le lecteur.') })
        .expect(200)
    ).body;
    expect(updated.instructions.nodes[0].nodes[0].leaves[0].text).toBe('Tutoyez le lecteur.');
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(done.updatedAt));
    const stored = await server.ds.manager.findOneByOrFail(Translation, { id: created.id });
    expect(stored.instructions).toBe('Tutoyez le lecteur.');

    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, created.id)}/run`)
      .expect(204);
    const again = await settled(server, admin, org.id, created.id, { runs: 2 });
    expect(again).toMatchObject({ status: 'completed', stats: { runs: 2, latestPages: 0 } });
    expect(again.result.space).toBe(done.result.space);

    await server.as(admin.token).delete(translationsPath(org.id, created.id)).expect(204);
    await server.as(admin.token).get(translationsPath(org.id, created.id)).expect(404);
    await server.as(admin.token).delete(translationsPath(org.id, created.id)).expect(204);
    expect((await server.as(admin.token).get(`/v1/spaces/${done.result.space}`).expect(200)).body).not.toHaveProperty(
      'deletedAt',
    );
    expect((await server.as(admin.token).get(translationsPath(org.id)).expect(200)).body).toEqual({
      items: [],
      count: 0,
    });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const { org, admin, space } = await setUp();
    const post = (body: object) => server.as(admin.token).post(translationsPath(org.id)).send(body).expect(400);
    expect((await post({ source: { space: space.id, language: 'en' } })).body.error.message).toMatch(/^language: /);
    expect((await post({ language: 'xx', source: { space: space.id, language: 'en' } })).body.error.message).toMatch(
      /^language: /,
    );
    expect((await post({ language: 'fr' })).body.error.message).toMatch(/^source: /);
    expect((await post({ language: 'fr', source: { space: space.id } })).body.error.message).toMatch(
      /^source\.language: /,
    );
    expect((await post({ language: 'fr', source: { space: space.id, language: 'fr' } })).body.error.message).toBe(
      'language: must differ from source.language',
    );
    expect(
      (await post({ language: 'fr', source: { space: space.id, language: 'en' }, instructions: 'be nice' })).body.error
        .message,
    ).toMatch(/^instructions/);
    expect(
      (await post({ language: 'fr', source: { space: space.id, language: 'en' }, colour: 'blue' })).body.error.message,
    ).toMatch(/colour/);
    await server
      .as(admin.token)
      .post(translationsPath(org.id))
      .send({ language: 'fr', source: { space: 'nosuchspace', language: 'en' } })
      .expect(404);

    const { id } = (await create(admin.token, org.id, space.id).expect(201)).body;
    expect(
      (await server.as(admin.token).put(translationsPath(org.id, id)).send({}).expect(400)).body.error.message,
    ).toMatch(/^instructions: /);
    expect(
      (
        await server
          .as(admin.token)
          .put(translationsPath(org.id, id))
          .send({ instructions: { object: 'document', nodes: [{ object: 'poem' }] } })
          .expect(400)
      ).body.error.message,
    ).toMatch(/^instructions\.nodes\.0: /);
    await server.as(admin.token).get(translationsPath(org.id, 'not*an*id')).expect(404);
    await server.as(admin.token).get(translationsPath(org.id)).query({ limit: 'many' }).expect(400);
    await settled(server, admin, org.id, id);
  });

  it('answers 401 without a token', async () => {
    const { org, admin, space } = await setUp();
    const { id } = (await create(admin.token, org.id, space.id).expect(201)).body;
    const path = translationsPath(org.id, id);
    for (const req of [
      request(server.app).get(translationsPath(org.id)),
      request(server.app)
        .post(translationsPath(org.id))
        .send({ language: 'fr', source: { space: space.id, language: 'en' } }),
      request(server.app).get(path),
      request(server.app)
        .put(path)
        .send({ instructions: DOCUMENT('x') }),
      request(server.app).delete(path),
      request(server.app).post(`${path}/run`),
    ]) {
      await req.expect(401);
    }
    await settled(server, admin, org.id, id);
  });

  it('answers 404 to another organization, for its paths and its translations', async () => {
    const { org, admin, space } = await setUp();
    const { id } = (await create(admin.token, org.id, space.id).expect(201)).body;
    const other = await createOrg(server.ds);
    const outsider = other.admin.token;
    const path = translationsPath(org.id, id);
    await server.as(outsider).get(translationsPath(org.id)).expect(404);
    await create(outsider, org.id, space.id).expect(404);
    await server.as(outsider).get(path).expect(404);
    await server
      .as(outsider)
      .put(path)
      .send({ instructions: DOCUMENT('x') })
      .expect(404);
    await server.as(outsider).delete(path).expect(204); // unseen: nothing changes
    await server.as(outsider).post(`${path}/run`).expect(404);
    // through its own organization: another organization's translation and space are not there
    await server.as(outsider).get(translationsPath(other.org.id, id)).expect(404);
    await server
      .as(outsider)
      .post(`${translationsPath(other.org.id, id)}/run`)
      .expect(404);
    await create(outsider, other.org.id, space.id).expect(404);
    expect((await server.as(admin.token).get(path).expect(200)).body.id).toBe(id);
    await settled(server, admin, org.id, id);
  });

  it('needs admin on the source space to manage (403); readers see it; guests see only what they are granted', async () => {
    const { org, admin, space } = await setUp();
    const { id } = (await create(admin.token, org.id, space.id).expect(201)).body;
    const editor = await addMember(server.ds, org, 'edit');
    const path = translationsPath(org.id, id);
    await create(editor.token, org.id, space.id).expect(403);
    await server
      .as(editor.token)
      .put(path)
      .send({ instructions: DOCUMENT('x') })
      .expect(403);
    await server.as(editor.token).delete(path).expect(403);
    await server.as(editor.token).post(`${path}/run`).expect(403);
    expect((await server.as(editor.token).get(path).expect(200)).body.permissions).toEqual({ view: true, edit: false });
    expect((await server.as(editor.token).get(translationsPath(org.id)).expect(200)).body.count).toBe(1);

    const guest = await addMember(server.ds, org, null);
    await server.as(guest.token).get(path).expect(404);
    expect((await server.as(guest.token).get(translationsPath(org.id)).expect(200)).body).toEqual({
      items: [],
      count: 0,
    });
    await grant(server.ds, org.id, 'space', space.id, guest.user.id, 'admin');
    expect((await server.as(guest.token).get(path).expect(200)).body.permissions).toEqual({ view: true, edit: true });
    await server.as(guest.token).post(`${path}/run`).expect(204);
    await settled(server, admin, org.id, id, { runs: 2 });
  });
});

describe('a 50-page space translated with pseudo', () => {
  it('translates only text, keeps the structure, and a second run after editing 2 pages sends exactly those 2', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { space, pageIds } = await spaceWithPages(server, admin, org.id, 50);
    const sourcePages = await spacePages(server, space.id);
    const { id } = (await create(admin.token, org.id, space.id).expect(201)).body;
    const first = await settled(server, admin, org.id, id);
    expect(first.status).toBe('completed');

    const resultPages = await spacePages(server, first.result.space);
    // the same tree: ids, parents, order and slugs
    expect(resultPages.map((p) => [p.id, p.parent, p.slug])).toEqual(sourcePages.map((p) => [p.id, p.parent, p.slug]));
    for (const [i, page] of resultPages.entries()) {
      const n = Number(sourcePages[i].title.split(' ').pop());
      expect(page.title).toBe(`⟦Ŵîđĝéţ þåĝé ${n}${'·'.repeat(Math.ceil(`Widgetpage${n}`.length / 3))}⟧`);
      expect(page.description).toMatch(/^⟦Åƀöûţ ŵîđĝéţ þåĝé \d+·+⟧$/);
      // code, links, image sources and variables exactly as in the source
      for (const kept of [
        `\`widget --page ${n}\``,
        `](https://example.com/setup/${n})`,
        `](page:p${n + 1})`,
        `](https://example.com/img/${n}.png)`,
        '{{ variables.product }}',
        `\`\`\`bash\necho "Hello from page ${n}"\n\`\`\``,
        `\`blue-${n}\``,
        '| --- | --- |',
      ]) {
        expect(page.markdown).toContain(kept);
      }
      expect(page.markdown).toContain(`⟦Þåĝé ${n} éẋþļåîñš ĥöŵ ţĥé ŵîđĝéţ ŵöŕķš.`);
      expect(page.markdown).toContain(`[ţĥé šéţûþ ĝûîđé](https://example.com/setup/${n})`);
      expect(page.markdown.split('\n').length).toBe(sourcePages[i].markdown.split('\n').length);
    }
    const wordsOf = (pages: typeof sourcePages) => pages.reduce((n, p) => n + translatablePage(p).words, 0);
    expect(first.stats).toMatchObject({
      runs: 1,
      latestPages: 50,
      totalPages: 50,
      latestWords: wordsOf(sourcePages),
      totalWords: wordsOf(sourcePages),
    });
    expect(first.stats.totalDuration).toBe(first.stats.latestRunDuration);

    const edited = [pageIds[3], pageIds[42]];
    await editPages(server, admin, space.id, edited, ' It changed.');
    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, id)}/run`)
      .expect(204);
    const second = await settled(server, admin, org.id, id, { runs: 2 });
    const editedWords = wordsOf((await spacePages(server, space.id)).filter((p) => edited.includes(p.id)));
    expect(second.stats).toEqual({
      runs: 2,
      latestPages: 2,
      totalPages: 50,
      latestWords: editedWords,
      totalWords: first.stats.totalWords + editedWords,
      latestRunDuration: expect.any(Number),
      totalDuration: first.stats.totalDuration + second.stats.latestRunDuration,
    });
    expect(second.result.space).toBe(first.result.space);
    expect(second.result.revision).not.toBe(first.result.revision);
    const after = await spacePages(server, first.result.space);
    for (const [i, page] of after.entries()) {
      if (edited.includes(page.id)) expect(page.markdown).toContain('Îţ çĥåñĝéđ.');
      else expect(page.v).toBe(resultPages[i].v); // carried over untouched
    }

    // nothing changed: a third run sends nothing
    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, id)}/run`)
      .expect(204);
    const third = await settled(server, admin, org.id, id, { runs: 3 });
    expect(third.stats).toMatchObject({
      runs: 3,
      latestPages: 0,
      latestWords: 0,
      totalPages: 50,
      totalWords: second.stats.totalWords,
    });
  }, 120000);
});

describe('what a later run writes', () => {
  it('mirrors an emoji changed in the source without sending the page, puts back what was edited in the result, and sends a page the result lost', async () => {
    const { org, admin } = await createOrg(server.ds);
    const { space, pageIds } = await spaceWithPages(server, admin, org.id, 12);
    const { id } = (await create(admin.token, org.id, space.id).expect(201)).body;
    const first = await settled(server, admin, org.id, id);
    const resultSpace = first.result.space as string;
    const pageOf = async (spaceId: string, pageId: string) => {
      const { revisionId } = await server.ds.manager.findOneByOrFail(Space, { id: spaceId });
      return (await readRevision(server, revisionId!)).page(pageId);
    };

    await writeHead(server, { kind: 'space', spaceId: space.id }, admin.user.id, (editor) =>
      editor.updatePage(pageIds[1], { emoji: '🔥' }),
    );
    await writeHead(server, { kind: 'space', spaceId: resultSpace }, admin.user.id, async (editor) => {
      await editor.updatePage(pageIds[11], { emoji: '🐛', hidden: true });
      await editor.movePage(pageIds[3], { parent: pageIds[4] });
      await editor.deletePage(pageIds[5]);
    });
    // a page recorded before versions were: the SHA-1 of its text, which still counts as translated
    const legacy = await pageOf(space.id, pageIds[6]);
    await server.ds.manager.update(
      TranslationPage,
      { translationId: id, pageId: pageIds[6] },
      { sourceHash: pageTextHash(legacy!.version) },
    );

    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, id)}/run`)
      .expect(204);
    const second = await settled(server, admin, org.id, id, { runs: 2 });
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 1, totalPages: 12 });
    const sourcePages = await spacePages(server, space.id);
    const resultPages = await spacePages(server, resultSpace);
    expect(resultPages.map((p) => [p.id, p.parent, p.slug])).toEqual(sourcePages.map((p) => [p.id, p.parent, p.slug]));
    expect((await pageOf(resultSpace, pageIds[1]))!.version.emoji).toBe('🔥');
    expect((await pageOf(resultSpace, pageIds[1]))!.version.title).toMatch(/^⟦/);
    expect((await pageOf(resultSpace, pageIds[11]))!.version).toMatchObject({ emoji: '📘', hidden: false });
    expect((await pageOf(resultSpace, pageIds[5]))!.version.title).toMatch(/^⟦/);
    // the restamped and the legacy page now record their current version
    const recorded = await server.ds.manager.findBy(TranslationPage, { translationId: id });
    const recordedOf = (pageId: string) => recorded.find((r) => r.pageId === pageId)?.sourceHash;
    expect(recordedOf(pageIds[1])).toBe((await pageOf(space.id, pageIds[1]))!.entry.v);
    expect(recordedOf(pageIds[6])).toBe(legacy!.entry.v);
  }, 120000);
});
