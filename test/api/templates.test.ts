import request from 'supertest';
import type { ContentEditor } from '../../domain/content/editor';
import { ObjectStore } from '../../domain/content/objects';
import { ContentReader, PageNode } from '../../domain/content/reader';
import { TEMPLATES } from '../../domain/content/templates';
import type { TemplatePage } from '../../domain/content/templates/model';
import { newId } from '../../domain/ids';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { SpaceLink } from '../../entities/SpaceLink';
import { addMember, createOrg, OrgFixture } from '../factories';
import { newSpace } from '../support/api';
import { writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();

type Shape = { title: string; children: Shape[] };
const templateShape = (pages: TemplatePage[]): Shape[] =>
  pages.map((p) => ({ title: p.title, children: templateShape(p.children ?? []) }));
const treeShape = (nodes: PageNode[]): Shape[] =>
  nodes.map((n) => ({ title: n.entry.title, children: treeShape(n.children) }));
const flatten = (nodes: PageNode[]): PageNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

async function headOf(spaceId: string): Promise<{ revision: Revision; reader: ContentReader }> {
  const space = await server.ds.manager.findOneByOrFail(Space, { id: spaceId });
  const revision = await server.ds.manager.findOneByOrFail(Revision, { id: space.revisionId! });
  return { revision, reader: new ContentReader(new ObjectStore(server.ds.manager), revision.root) };
}

/** Edits the space head directly, as the content routes would. */
async function editSpace(
  spaceId: string,
  userId: string,
  edit: (editor: ContentEditor) => Promise<unknown>,
): Promise<void> {
  await writeHead(server, { kind: 'space', spaceId }, userId, edit);
}

async function addFile(spaceId: string, userId: string, name = 'logo.png'): Promise<string> {
  const id = newId();
  await editSpace(spaceId, userId, async (editor) =>
    editor.putFile(id, { name, contentType: 'image/png', size: 3, blob: 'files/x/y' }),
  );
  return id;
}

describe('GET /v1/templates', () => {
  it('lists the catalogue with each template slots', async () => {
    const fx = await createOrg(server.ds);
    const res = await server.as(fx.admin.token).get('/v1/templates').expect(200);
    expect(res.body.items.map((t: { id: string }) => t.id)).toEqual([
      'product-guide',
      'api-reference',
      'knowledge-base',
    ]);
    expect(res.body.items[1]).toEqual({
      id: 'api-reference',
      title: 'API reference',
      description: expect.any(String),
      slots: [
        { name: 'openapi-spec', description: expect.any(String), required: true },
        { name: 'logo', description: expect.any(String), required: false },
      ],
    });
  });

  it('needs a token', async () => {
    await request(server.app).get('/v1/templates').expect(401);
    await request(server.app).get('/v1/templates').set('Authorization', 'Bearer garbage').expect(401);
  });
});

describe('POST /v1/spaces/{spaceId}/content/template', () => {
  let fx: OrgFixture;
  let spaceId: string;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    spaceId = (await newSpace(server, fx.admin, fx.org.id)).id;
  });
  const apply = (body: object, token = fx.admin.token) =>
    server.as(token).post(`/v1/spaces/${spaceId}/content/template`).send(body);

  it.each(TEMPLATES.map((t) => [t.id]))(
    'applies %s as one template revision whose pages, links and search sections are all there',
    async (id) => {
      const template = TEMPLATES.find((t) => t.id === id)!;
      const required = template.slots.filter((s) => s.required);
      const contentRefs: Record<string, object> = {};
      for (const slot of required)
        contentRefs[slot.name] = { kind: 'file', file: await addFile(spaceId, fx.admin.user.id, `${slot.name}.bin`) };
      const before = await headOf(spaceId);

      const res = await apply({ id, params: { contentRefs } }).expect(201);
      expect(res.body).toEqual({});
      expect(res.text).toBe('');

      const { revision, reader } = await headOf(spaceId);
      expect(revision).toMatchObject({
        type: 'template',
        parents: [before.revision.id],
        createdById: fx.admin.user.id,
      });
      const tree = await reader.tree();
      expect(treeShape(tree)).toEqual(templateShape(template.pages));
      const pages = flatten(tree);
      for (const page of pages) expect(page.version.markdown.length).toBeGreaterThan(100);

      // Links between the template's pages point at the pages just created, so every one resolves.
      const links = await server.ds.manager.findBy(SpaceLink, { spaceId });
      const pageLinks = links.filter((l) => l.kind === 'page');
      expect(pageLinks.length).toBeGreaterThan(3);
      expect(pageLinks.filter((l) => l.status !== 'ok')).toEqual([]);
      expect(new Set(pageLinks.map((l) => l.target)).size).toBeGreaterThan(1);
      for (const l of pageLinks) expect(pages.map((p) => p.id)).toContain(l.target);
      const indexed = await server.ds.manager.query(
        'SELECT COUNT(DISTINCT pageId) AS n FROM search_sections WHERE spaceId = ?',
        [spaceId],
      );
      expect(Number(indexed[0].n)).toBe(pages.length);
    },
  );

  it('adds the pages after the existing root pages, keeping slugs unique, and hides the knowledge-base article template', async () => {
    await editSpace(spaceId, fx.admin.user.id, async (editor) => {
      await editor.createPage({ title: 'Home', markdown: 'Our own home page' });
    });
    await apply({ id: 'knowledge-base' }).expect(201);
    const tree = await (await headOf(spaceId)).reader.tree();
    expect(tree.map((p) => [p.entry.title, p.path])).toEqual([
      ['Home', 'home'],
      ['Home', 'home-2'],
      ['Getting started', 'getting-started'],
      ['Account and billing', 'account-and-billing'],
      ['Troubleshooting', 'troubleshooting'],
      ['Article template', 'article-template'],
    ]);
    expect(tree[0].version.markdown).toBe('Our own home page');
    expect(tree[5].version.hidden).toBe(true);
    expect(tree[2].children.map((p) => p.path)).toEqual([
      'getting-started/creating-your-account',
      'getting-started/resetting-your-password',
      'getting-started/setting-up-your-profile',
    ]);

    await apply({ id: 'knowledge-base' }).expect(201);
    expect((await (await headOf(spaceId)).reader.tree()).map((p) => p.path).slice(6, 8)).toEqual([
      'home-3',
      'getting-started-2',
    ]);
  });

  it('renders bound slots as file: images and links, and leaves unbound optional slots out', async () => {
    const logo = await addFile(spaceId, fx.admin.user.id, 'logo.png');
    const spec = await addFile(spaceId, fx.admin.user.id, 'openapi.yaml');
    await apply({
      id: 'api-reference',
      params: { contentRefs: { logo: { kind: 'file', file: logo }, 'openapi-spec': { kind: 'file', file: spec } } },
    }).expect(201);
    const tree = await (await headOf(spaceId)).reader.tree();
    const overview = tree.find((p) => p.entry.title === 'Overview')!;
    expect(overview.version.markdown.startsWith(`![Logo](file:${logo})\n\n`)).toBe(true);
    expect(overview.version.markdown).toContain(`[OpenAPI document](file:${spec})`);
    expect(overview.version.links).toEqual(
      expect.arrayContaining([
        { kind: 'file', target: logo },
        { kind: 'file', target: spec },
      ]),
    );
    const fileLinks = await server.ds.manager.findBy(SpaceLink, { spaceId, kind: 'file' });
    expect(new Set(fileLinks.map((l) => `${l.target}:${l.status}`))).toEqual(new Set([`${logo}:ok`, `${spec}:ok`]));

    const other = (await newSpace(server, fx.admin, fx.org.id)).id;
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${other}/content/template`)
      .send({ id: 'product-guide' })
      .expect(201);
    const intro = (await (await headOf(other)).reader.tree())[0];
    expect(intro.entry.title).toBe('Introduction');
    expect(intro.version.markdown.startsWith('Welcome!')).toBe(true);
    expect(intro.version.links.filter((l) => l.kind === 'file')).toEqual([]);
  });

  it('refuses bad input with the field and rule, writing nothing', async () => {
    const logo = await addFile(spaceId, fx.admin.user.id);
    const otherSpace = (await newSpace(server, fx.admin, fx.org.id)).id;
    const foreignFile = await addFile(otherSpace, fx.admin.user.id);
    const before = (await headOf(spaceId)).revision.id;
    const cases: Array<[object, string]> = [
      [{ id: 'blog' }, 'id: unknown template (known: product-guide, api-reference, knowledge-base)'],
      [{}, 'id: is required'],
      [{ id: 7 }, 'id: must be a string, not number'],
      [{ id: 'product-guide', colour: 'red' }, 'colour: unknown field; accepted: id, params'],
      [
        { id: 'product-guide', params: { contentRefs: { banner: { kind: 'file', file: logo } } } },
        'params.contentRefs.banner: unknown slot',
      ],
      [
        { id: 'product-guide', params: { contentRefs: { logo: { kind: 'file', file: 'nope' } } } },
        'params.contentRefs.logo.file: no such file in this space',
      ],
      [
        { id: 'product-guide', params: { contentRefs: { logo: { kind: 'file', file: foreignFile } } } },
        'params.contentRefs.logo.file: no such file in this space',
      ],
      [
        { id: 'product-guide', params: { contentRefs: { logo: { kind: 'page', file: logo } } } },
        'params.contentRefs.logo.kind: must be "file"',
      ],
      [
        { id: 'product-guide', params: { contentRefs: { logo: { kind: 'file' } } } },
        'params.contentRefs.logo.file: is required',
      ],
      [{ id: 'product-guide', params: { refs: {} } }, 'params.refs: unknown field; accepted: contentRefs'],
      [{ id: 'api-reference' }, 'params.contentRefs.openapi-spec: is required'],
      [
        { id: 'api-reference', params: { contentRefs: { logo: { kind: 'file', file: logo } } } },
        'params.contentRefs.openapi-spec: is required',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await apply(body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({
        body,
        status: 400,
        error: { code: 400, message },
      });
    }
    expect((await headOf(spaceId)).revision.id).toBe(before);
  });

  it('needs edit on the space: 403 for a read member, 404 for another organization, 401 without a token', async () => {
    const reader = await addMember(server.ds, fx.org, 'read');
    const res = await apply({ id: 'product-guide' }, reader.token).expect(403);
    expect(res.body.error.code).toBe(403);
    const editor = await addMember(server.ds, fx.org, 'edit');
    await apply({ id: 'product-guide' }, editor.token).expect(201);

    const stranger = await createOrg(server.ds);
    const notFound = await apply({ id: 'product-guide' }, stranger.admin.token).expect(404);
    expect(notFound.body).toEqual({ error: { code: 404, message: 'space not found' } });
    await request(server.app).post(`/v1/spaces/${spaceId}/content/template`).send({ id: 'product-guide' }).expect(401);
    await server
      .as(fx.admin.token)
      .post('/v1/spaces/missing/content/template')
      .send({ id: 'product-guide' })
      .expect(404);
  });

  it('refuses a locked space with 409', async () => {
    await server.ds.manager.update(Space, { id: spaceId }, { editMode: 'locked' });
    const before = (await headOf(spaceId)).revision.id;
    const res = await apply({ id: 'product-guide' }).expect(409);
    expect(res.body).toEqual({
      error: { code: 409, message: 'the space is locked: edit it through a change request' },
    });
    expect((await headOf(spaceId)).revision.id).toBe(before);
  });
});
