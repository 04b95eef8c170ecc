/** Reading content through both forms (space head, change request head): revision, page tree, page, files. */
import request from 'supertest';
import { insertRevision } from '../../domain/content/revisions';
import { ChangeRequest } from '../../entities/ChangeRequest';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { addMember, createOrg } from '../factories';
import { Json } from '../support/api';
import { insertSpace } from '../support/content';
import {
  CONTENT_FORMS,
  ContentFixture,
  ContentForm,
  contentFixture,
  createPage,
  PAGE_CONSTANTS,
  png,
  upload,
} from '../support/content-forms';
import { useServer } from '../support/server';

const server = useServer();

/** The revision at the form's head, read from the database. */
async function headRevision(form: ContentForm, fx: ContentFixture): Promise<Revision> {
  const id =
    form.name === 'space'
      ? (await server.ds.manager.findOneByOrFail(Space, { id: fx.space.id })).revisionId!
      : (await server.ds.manager.findOneByOrFail(ChangeRequest, { id: fx.changeRequest.id })).revisionId;
  return server.ds.manager.findOneByOrFail(Revision, { id });
}

/** Moves the form's head to a new revision of the same content carrying `variables`. */
async function setVariables(form: ContentForm, fx: ContentFixture, variables: Record<string, string>): Promise<void> {
  const current = await headRevision(form, fx);
  const next = await insertRevision(server.ds.manager, {
    spaceId: fx.space.id,
    changeRequestId: current.changeRequestId,
    parents: [current.id],
    type: 'edits',
    root: current.root,
    variables,
    createdById: fx.admin.user.id,
  });
  if (form.name === 'space') await server.ds.manager.update(Space, { id: fx.space.id }, { revisionId: next.id });
  else await server.ds.manager.update(ChangeRequest, { id: fx.changeRequest.id }, { revisionId: next.id });
}

describe.each(CONTENT_FORMS)('content reads ($name form)', (form) => {
  let fx: ContentFixture;
  let prefix: string;
  let app: string;
  beforeEach(async () => {
    fx = await contentFixture(server);
    prefix = form.prefix(fx);
    app = form.appBase(server, fx);
  });

  it('GET {content} answers the head revision: the page tree with every body, files, variables, urls, no git', async () => {
    const guide = await createPage(server, fx.admin.token, prefix, {
      title: 'Getting Started',
      markdown: '# Hi',
      emoji: '🚀',
      description: 'start here',
    });
    const install = await createPage(server, fx.admin.token, prefix, {
      title: 'Install',
      parent: guide.id,
      markdown: 'npm i',
      hidden: true,
    });
    const faq = await createPage(server, fx.admin.token, prefix, { title: 'FAQ' });
    const file = (await upload(server, fx.admin.token, prefix, 'logo.png', png(3, 2), 'image/png').expect(201)).body;

    const head = await headRevision(form, fx);
    const res = await server.as(fx.admin.token).get(prefix).expect(200);
    const pinned = `/s/${fx.space.id}/~/revisions/${head.id}`;
    expect(res.body).toEqual({
      object: 'revision',
      id: head.id,
      parents: [expect.any(String)],
      pages: [
        {
          ...PAGE_CONSTANTS,
          id: guide.id,
          title: 'Getting Started',
          emoji: '🚀',
          createdAt: guide.createdAt,
          updatedAt: guide.updatedAt,
          markdown: '# Hi',
          type: 'document',
          urls: { app: `${app}/getting-started` },
          slug: 'getting-started',
          path: 'getting-started',
          description: 'start here',
          hidden: false,
          pages: [
            {
              ...PAGE_CONSTANTS,
              id: install.id,
              title: 'Install',
              createdAt: install.createdAt,
              updatedAt: install.updatedAt,
              markdown: 'npm i',
              type: 'document',
              urls: { app: `${app}/getting-started/install` },
              slug: 'install',
              path: 'getting-started/install',
              hidden: true,
              pages: [],
            },
          ],
        },
        {
          ...PAGE_CONSTANTS,
          id: faq.id,
          title: 'FAQ',
          createdAt: faq.createdAt,
          updatedAt: faq.updatedAt,
          markdown: '',
          type: 'document',
          urls: { app: `${app}/faq` },
          slug: 'faq',
          path: 'faq',
          hidden: false,
          pages: [],
        },
      ],
      files: [
        {
          id: file.id,
          name: 'logo.png',
          contentType: 'image/png',
          downloadURL: expect.stringContaining(`/v1/blobs/files/${fx.space.id}/`),
          size: png(3, 2).length,
          dimensions: { width: 3, height: 2 },
        },
      ],
      reusableContents: [],
      variables: {},
      createdAt: head.createdAt.toISOString(),
      tags: [],
      type: 'edits',
      urls: {
        app: `${server.config.appBaseUrl}/o/${fx.org.id}${pinned}`,
        published: `${server.config.publishedBaseUrl}${pinned}`,
        public: `${server.config.publishedBaseUrl}${pinned}`,
      },
    });
    // metadata=false and computed=false are accepted and change nothing (no git, no computed pages)
    const plain = await server
      .as(fx.admin.token)
      .get(prefix)
      .query({ metadata: 'false', computed: 'false' })
      .expect(200);
    expect({ ...plain.body, files: [] }).toEqual({ ...res.body, files: [] });
  });

  it('GET {content}/pages answers the nested tree; an empty content has no pages', async () => {
    expect((await server.as(fx.admin.token).get(`${prefix}/pages`).expect(200)).body).toEqual({ pages: [] });
    const a = await createPage(server, fx.admin.token, prefix, { title: 'A' });
    const b = await createPage(server, fx.admin.token, prefix, { title: 'B', parent: a.id });
    const c = await createPage(server, fx.admin.token, prefix, { title: 'C', parent: b.id });
    const a2 = await createPage(server, fx.admin.token, prefix, { title: 'A', index: 0 });
    const res = await server.as(fx.admin.token).get(`${prefix}/pages`).query({ metadata: 'true' }).expect(200);
    const shape = (pages: Json[]): unknown =>
      pages.map((p) => ({ id: p.id, path: p.path, slug: p.slug, markdown: p.markdown, pages: shape(p.pages) }));
    expect(shape(res.body.pages)).toEqual([
      { id: a2.id, path: 'a-2', slug: 'a-2', markdown: '', pages: [] },
      {
        id: a.id,
        path: 'a',
        slug: 'a',
        markdown: '',
        pages: [
          {
            id: b.id,
            path: 'a/b',
            slug: 'b',
            markdown: '',
            pages: [{ id: c.id, path: 'a/b/c', slug: 'c', markdown: '', pages: [] }],
          },
        ],
      },
    ]);
    expect(res.body.pages).toEqual((await server.as(fx.admin.token).get(prefix).expect(200)).body.pages);
  });

  it('GET {content}/page/{pageId} answers the page with its markdown and its whole subtree, each page with its markdown', async () => {
    const parent = await createPage(server, fx.admin.token, prefix, { title: 'Parent', markdown: 'Hello *world*' });
    const child = await createPage(server, fx.admin.token, prefix, {
      title: 'Child',
      parent: parent.id,
      markdown: 'child text',
      emoji: '📄',
    });
    const grandchild = await createPage(server, fx.admin.token, prefix, {
      title: 'Grandchild',
      parent: child.id,
      markdown: 'deep',
    });
    const res = await server.as(fx.admin.token).get(`${prefix}/page/${parent.id}`).expect(200);
    expect(res.body).toEqual({
      ...PAGE_CONSTANTS,
      id: parent.id,
      title: 'Parent',
      createdAt: parent.createdAt,
      updatedAt: parent.updatedAt,
      markdown: 'Hello *world*',
      type: 'document',
      urls: { app: `${app}/parent` },
      slug: 'parent',
      path: 'parent',
      hidden: false,
      pages: [
        {
          ...PAGE_CONSTANTS,
          id: child.id,
          title: 'Child',
          emoji: '📄',
          createdAt: child.createdAt,
          updatedAt: child.updatedAt,
          markdown: 'child text',
          type: 'document',
          urls: { app: `${app}/parent/child` },
          slug: 'child',
          path: 'parent/child',
          hidden: false,
          pages: [
            {
              ...PAGE_CONSTANTS,
              id: grandchild.id,
              title: 'Grandchild',
              createdAt: grandchild.createdAt,
              updatedAt: grandchild.updatedAt,
              markdown: 'deep',
              type: 'document',
              urls: { app: `${app}/parent/child/grandchild` },
              slug: 'grandchild',
              path: 'parent/child/grandchild',
              hidden: false,
              pages: [],
            },
          ],
        },
      ],
    });
    const nested = await server
      .as(fx.admin.token)
      .get(`${prefix}/page/${child.id}`)
      .query({ format: 'markdown', metadata: 'false', computed: 'false' })
      .expect(200);
    expect(nested.body).toMatchObject({
      id: child.id,
      path: 'parent/child',
      markdown: 'child text',
      pages: [{ title: 'Grandchild', path: 'parent/child/grandchild', markdown: 'deep', pages: [] }],
    });
    // the requested form is the page's own; the pages under it carry their stored markdown
    const asDocument = await server
      .as(fx.admin.token)
      .get(`${prefix}/page/${parent.id}`)
      .query({ format: 'document' })
      .expect(200);
    expect(asDocument.body.pages[0]).toMatchObject({ markdown: 'child text', pages: [{ markdown: 'deep' }] });
    expect(asDocument.body.pages[0]).not.toHaveProperty('document');
  });

  it('format=document answers the markdown as a tree of blocks, inlines and text leaves', async () => {
    const markdown = [
      '# Title',
      '',
      'Some **bold *both*** and `code`, [a link](page:abc) and ![logo](file:f1).',
      'next line',
      '',
      '- one',
      '- two',
      '',
      '3. three',
      '',
      '```js',
      'let x;',
      'x = 1;',
      '```',
      '',
      '> quoted',
      '',
      '---',
      '',
      '| A | B |',
      '|---|:-:|',
      '| 1 | 2 |',
    ].join('\n');
    const page = await createPage(server, fx.admin.token, prefix, { title: 'Doc', markdown });
    const res = await server
      .as(fx.admin.token)
      .get(`${prefix}/page/${page.id}`)
      .query({ format: 'document' })
      .expect(200);
    expect(res.body).not.toHaveProperty('markdown');
    const text = (t: string, ...marks: string[]) => ({
      object: 'leaf',
      text: t,
      marks: marks.map((type) => ({ object: 'mark', type })),
    });
    // GitBook's JSONDocument: every block carries data
    const block = (type: string, nodes: unknown[], data: object = {}) => ({ object: 'block', type, data, nodes });
    const leaves = (...l: unknown[]) => ({ object: 'text', leaves: l });
    expect(res.body.document).toEqual({
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [
        block('heading-1', [leaves(text('Title'))]),
        block('paragraph', [
          leaves(
            text('Some '),
            text('bold ', 'bold'),
            text('both', 'bold', 'italic'),
            text(' and '),
            text('code', 'code'),
            text(', '),
          ),
          {
            object: 'inline',
            type: 'link',
            isVoid: false,
            data: { ref: { kind: 'page', page: 'abc' } },
            nodes: [leaves(text('a link'))],
          },
          leaves(text(' and ')),
          {
            object: 'inline',
            type: 'inline-image',
            isVoid: true,
            data: { ref: { kind: 'file', file: 'f1' }, caption: 'logo' },
          },
          leaves(text('.\nnext line')),
        ]),
        block('list-unordered', [
          block('list-item', [block('paragraph', [leaves(text('one'))])]),
          block('list-item', [block('paragraph', [leaves(text('two'))])]),
        ]),
        block('list-ordered', [block('list-item', [block('paragraph', [leaves(text('three'))])])], { start: 3 }),
        block('code', [block('code-line', [leaves(text('let x;'))]), block('code-line', [leaves(text('x = 1;'))])], {
          syntax: 'js',
        }),
        block('blockquote', [block('paragraph', [leaves(text('quoted'))])]),
        { object: 'block', type: 'divider', isVoid: true, data: {} },
        // GitBook's table: a text column per header cell, a record per row, each cell a fragment
        {
          object: 'block',
          type: 'table',
          isVoid: true,
          data: {
            view: { type: 'grid', columns: ['c0', 'c1'], hideHeader: false },
            records: { r0: { orderIndex: '000000', values: { c0: 'r0c0', c1: 'r0c1' } } },
            definition: {
              c0: { id: 'c0', title: 'A', type: 'text', textAlignment: 'left' },
              c1: { id: 'c1', title: 'B', type: 'text', textAlignment: 'center' },
            },
          },
          fragments: [
            { object: 'fragment', fragment: 'r0c0', nodes: [block('paragraph', [leaves(text('1'))])] },
            { object: 'fragment', fragment: 'r0c1', nodes: [block('paragraph', [leaves(text('2'))])] },
          ],
        },
      ],
    });
  });

  it('evaluated=true replaces variable references with the revision variables; the default leaves them as written', async () => {
    const markdown = 'Welcome to {{ variables.product }} {{variables.version}}; {{ variables.missing }} stays.';
    const page = await createPage(server, fx.admin.token, prefix, { title: 'Vars', markdown });
    await setVariables(form, fx, { product: 'Acme', version: '2.0' });
    expect((await server.as(fx.admin.token).get(prefix).expect(200)).body.variables).toEqual({
      product: 'Acme',
      version: '2.0',
    });
    expect((await server.as(fx.admin.token).get(`${prefix}/page/${page.id}`).expect(200)).body.markdown).toBe(markdown);
    expect(
      (await server.as(fx.admin.token).get(`${prefix}/page/${page.id}`).query({ evaluated: 'false' }).expect(200)).body
        .markdown,
    ).toBe(markdown);
    const evaluated = await server
      .as(fx.admin.token)
      .get(`${prefix}/page/${page.id}`)
      .query({ evaluated: 'true' })
      .expect(200);
    expect(evaluated.body.markdown).toBe('Welcome to Acme 2.0; {{ variables.missing }} stays.');
    const document = await server
      .as(fx.admin.token)
      .get(`${prefix}/page/${page.id}`)
      .query({ evaluated: 'true', format: 'document' })
      .expect(200);
    expect(document.body.document.nodes[0].nodes[0].leaves[0].text).toBe(
      'Welcome to Acme 2.0; {{ variables.missing }} stays.',
    );
  });

  it('GET {content}/files pages by name then id with a signed cursor; a forged or foreign cursor is 400', async () => {
    const uploaded: Json[] = [];
    for (const name of ['b.txt', 'c.txt', 'a.txt'])
      uploaded.push(
        (await upload(server, fx.admin.token, prefix, name, Buffer.from(name), 'text/plain').expect(201)).body,
      );
    const seen: string[] = [];
    let page: string | undefined;
    const counts: number[] = [];
    do {
      const res = await server
        .as(fx.admin.token)
        .get(`${prefix}/files`)
        .query({ limit: 1, ...(page ? { page } : {}) })
        .expect(200);
      expect(res.body.items).toHaveLength(1);
      seen.push(res.body.items[0].name);
      counts.push(res.body.count);
      page = res.body.next?.page;
      if (seen.length === 1) {
        const [payload, mac] = page!.split('.');
        const forged = Buffer.from(
          JSON.stringify([
            { t: 'v', v: 'zzz' },
            { t: 'v', v: 'x' },
          ]),
        ).toString('base64url');
        const bad = await server
          .as(fx.admin.token)
          .get(`${prefix}/files`)
          .query({ limit: 1, page: `${forged}.${mac}` })
          .expect(400);
        expect(bad.body).toEqual({ error: { code: 400, message: 'page: invalid or expired cursor' } });
        expect(payload).toBeTruthy();
        // the other form's file list is another list
        const other = CONTENT_FORMS.find((f) => f !== form)!.prefix(fx);
        expect(
          (await server.as(fx.admin.token).get(`${other}/files`).query({ page: page! }).expect(400)).body.error.message,
        ).toBe('page: invalid or expired cursor');
      }
    } while (page);
    expect(seen).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(counts).toEqual([3, 3, 3]);
    const all = await server.as(fx.admin.token).get(`${prefix}/files`).expect(200);
    expect(all.body).toEqual({ items: expect.any(Array), count: 3 });
    expect(all.body.items.map((f: Json) => f.id)).toEqual([uploaded[2].id, uploaded[0].id, uploaded[1].id]);
    expect((await server.as(fx.admin.token).get(`${prefix}/files`).query({ limit: 0 }).expect(200)).body).toEqual({
      items: [],
      count: 3,
    });
  });

  it('GET {content}/files/{fileId} answers the file; dimensions only for images; an unknown file is 404', async () => {
    const text = (
      await upload(
        server,
        fx.admin.token,
        prefix,
        'notes.txt',
        Buffer.from('hello'),
        'text/plain; charset=utf-8',
      ).expect(201)
    ).body;
    const res = await server
      .as(fx.admin.token)
      .get(`${prefix}/files/${text.id}`)
      .query({ metadata: 'false' })
      .expect(200);
    expect(res.body).toEqual({
      id: text.id,
      name: 'notes.txt',
      contentType: 'text/plain; charset=utf-8',
      downloadURL: expect.stringMatching(/^http.*\/v1\/blobs\/files\//),
      size: 5,
    });
    const missing = await server.as(fx.admin.token).get(`${prefix}/files/nope`).expect(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'file not found' } });
  });

  it('refuses bad queries with 400 naming the parameter', async () => {
    const page = await createPage(server, fx.admin.token, prefix, { title: 'P' });
    const cases: Array<[string, Record<string, string>, string]> = [
      [prefix, { metadata: 'yes' }, 'metadata: must be one of true, false'],
      [`${prefix}/pages`, { computed: '1' }, 'computed: must be one of true, false'],
      [`${prefix}/page/${page.id}`, { format: 'html' }, 'format: must be one of markdown, document'],
      [`${prefix}/page/${page.id}`, { evaluated: 'yes' }, 'evaluated: must be one of true, false, deterministic-only'],
      [
        `${prefix}/page/${page.id}`,
        { dereferenced: 'all' },
        'dereferenced: must be one of true, false, reusable-contents',
      ],
      [
        `${prefix}/page/${page.id}`,
        { 'format.markdown.refs': 'absolute' },
        'format.markdown.refs: must be one of relative, stable',
      ],
      [`${prefix}/files`, { limit: '1001' }, 'limit: must be at most 1000'],
      [`${prefix}/files`, { limit: 'x' }, 'limit: must be an integer'],
    ];
    for (const [path, query, message] of cases) {
      const res = await server.as(fx.admin.token).get(path).query(query);
      expect({ path, query, status: res.status, body: res.body }).toEqual({
        path,
        query,
        status: 400,
        body: { error: { code: 400, message } },
      });
    }
  });

  it('a read member reads; a member of another organization gets 404; an unknown page or change request is 404', async () => {
    const page = await createPage(server, fx.admin.token, prefix, { title: 'P' });
    const reader = await addMember(server.ds, fx.org, 'read');
    for (const path of [prefix, `${prefix}/pages`, `${prefix}/page/${page.id}`, `${prefix}/files`])
      await server.as(reader.token).get(path).expect(200);
    const other = await createOrg(server.ds);
    for (const path of [
      prefix,
      `${prefix}/pages`,
      `${prefix}/page/${page.id}`,
      `${prefix}/files`,
      `${prefix}/files/x`,
    ]) {
      const res = await server.as(other.admin.token).get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: { error: { code: 404, message: 'space not found' } },
      });
    }
    expect((await server.as(fx.admin.token).get(`${prefix}/page/nope`).expect(404)).body.error.message).toBe(
      'page not found',
    );
    const noSuchCr = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${fx.space.id}/change-requests/999/content`)
      .expect(404);
    expect(noSuchCr.body.error.message).toBe('change request not found');
  });
});

describe('content reads: a space without a revision', () => {
  it('gets its initial, empty revision on first read', async () => {
    const fx = await createOrg(server.ds);
    const space = await insertSpace(server.ds, fx.org);
    const res = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content`).expect(200);
    // GitBook's revision types: a first revision is content written like edits
    expect(res.body).toMatchObject({ object: 'revision', parents: [], pages: [], files: [], type: 'edits' });
    expect((await server.ds.manager.findOneByOrFail(Space, { id: space.id })).revisionId).toBe(res.body.id);
  });
});

describe('content reads: authentication', () => {
  it('answers 401 without a valid token', async () => {
    const fx = await contentFixture(server);
    for (const form of CONTENT_FORMS) {
      await request(server.app).get(form.prefix(fx)).expect(401);
      await server
        .as('garbage')
        .get(`${form.prefix(fx)}/pages`)
        .expect(401);
    }
  });
});
