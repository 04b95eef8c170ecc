/** Writing content (extensions) through both forms: pages created, edited, moved, deleted; files uploaded and deleted. */

import { updateChangeRequest } from '../../domain/content/change-requests';
import { Revision } from '../../entities/Revision';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg } from '../factories';
import { Json } from '../support/api';
import {
  CONTENT_FORMS,
  ContentFixture,
  canonicalPrefix,
  contentFixture,
  createPage,
  download,
  PAGE_CONSTANTS,
  png,
  upload,
} from '../support/content-forms';
import { startServer, useServer } from '../support/server';

const server = useServer();

async function tree(token: string, prefix: string): Promise<unknown> {
  const shape = (pages: Json[]): unknown => pages.map((p) => ({ title: p.title, path: p.path, pages: shape(p.pages) }));
  return shape((await server.as(token).get(`${prefix}/pages`).expect(200)).body.pages);
}

describe.each(CONTENT_FORMS)('content writes ($name form)', (form) => {
  let fx: ContentFixture;
  let prefix: string;
  let app: string;
  beforeEach(async () => {
    fx = await contentFixture(server);
    prefix = form.prefix(fx);
    app = form.appBase(server, fx);
  });

  it('POST {content}/pages creates a page as one `edits` revision and answers 201 with Location', async () => {
    const before = (await server.as(fx.admin.token).get(prefix).expect(200)).body;
    const res = await server
      .as(fx.admin.token)
      .post(`${prefix}/pages`)
      .send({ title: 'Getting Started', markdown: '# Hello', emoji: '🚀', description: 'intro', hidden: true })
      .expect(201);
    expect(res.headers.location).toBe(`${canonicalPrefix(server, form, fx)}/page/${res.body.id}`);
    expect(res.body).toEqual({
      ...PAGE_CONSTANTS,
      id: expect.any(String),
      title: 'Getting Started',
      emoji: '🚀',
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
      markdown: '# Hello',
      type: 'document',
      urls: { app: `${app}/getting-started` },
      slug: 'getting-started',
      path: 'getting-started',
      description: 'intro',
      pages: [],
      hidden: true,
    });
    const after = (await server.as(fx.admin.token).get(prefix).expect(200)).body;
    expect(after).toMatchObject({ type: 'edits', parents: [before.id] });
    const revision = await server.ds.manager.findOneByOrFail(Revision, { id: after.id });
    expect(revision).toMatchObject({
      createdById: fx.admin.user.id,
      changeRequestId: form.name === 'space' ? null : fx.changeRequest.id,
      spaceId: fx.space.id,
    });
    expect((await server.as(fx.admin.token).get(`${prefix}/page/${res.body.id}`).expect(200)).body).toEqual(res.body);
  });

  it('creates nested pages at an index with unique slugs per level', async () => {
    const guide = await createPage(server, fx.admin.token, prefix, { title: 'Guide' });
    const second = await createPage(server, fx.admin.token, prefix, { title: 'Setup', parent: guide.id });
    const first = await createPage(server, fx.admin.token, prefix, { title: 'Setup', parent: guide.id, index: 0 });
    expect([first.path, second.path]).toEqual(['guide/setup-2', 'guide/setup']);
    expect(first.urls.app).toBe(`${app}/guide/setup-2`);
    await createPage(server, fx.admin.token, prefix, { title: 'Setup' });
    expect(await tree(fx.admin.token, prefix)).toEqual([
      {
        title: 'Guide',
        path: 'guide',
        pages: [
          { title: 'Setup', path: 'guide/setup-2', pages: [] },
          { title: 'Setup', path: 'guide/setup', pages: [] },
        ],
      },
      { title: 'Setup', path: 'setup', pages: [] },
    ]);
    const parentView = (await server.as(fx.admin.token).get(`${prefix}/page/${guide.id}`).expect(200)).body;
    expect(parentView.pages.map((p: Json) => p.id)).toEqual([first.id, second.id]);
  });

  it('PATCH {content}/page/{pageId} edits fields, clears nullable ones and moves the page with its subtree', async () => {
    const a = await createPage(server, fx.admin.token, prefix, { title: 'A', emoji: '🅰️', description: 'd' });
    const b = await createPage(server, fx.admin.token, prefix, { title: 'B' });
    const child = await createPage(server, fx.admin.token, prefix, { title: 'Child', parent: b.id });

    const edited = await server
      .as(fx.admin.token)
      .patch(`${prefix}/page/${a.id}`)
      .send({ title: 'Alpha', markdown: 'new text', emoji: null, description: null, hidden: true })
      .expect(200);
    expect(edited.body).toEqual({
      ...PAGE_CONSTANTS,
      id: a.id,
      title: 'Alpha',
      createdAt: a.createdAt,
      updatedAt: expect.any(String),
      markdown: 'new text',
      type: 'document',
      urls: { app: `${app}/alpha` },
      slug: 'alpha',
      path: 'alpha',
      pages: [],
      hidden: true,
    });
    // cleared optional fields are left out (GitBook's document marks them optional, not nullable)
    expect(edited.body).not.toHaveProperty('emoji');
    expect(edited.body).not.toHaveProperty('description');

    // B (with its child) moves under Alpha; then back to the root, first
    const moved = await server.as(fx.admin.token).patch(`${prefix}/page/${b.id}`).send({ parent: a.id }).expect(200);
    expect(moved.body).toMatchObject({ path: 'alpha/b', pages: [{ id: child.id, path: 'alpha/b/child' }] });
    expect(await tree(fx.admin.token, prefix)).toEqual([
      {
        title: 'Alpha',
        path: 'alpha',
        pages: [{ title: 'B', path: 'alpha/b', pages: [{ title: 'Child', path: 'alpha/b/child', pages: [] }] }],
      },
    ]);
    await server.as(fx.admin.token).patch(`${prefix}/page/${b.id}`).send({ parent: null, index: 0 }).expect(200);
    expect(await tree(fx.admin.token, prefix)).toEqual([
      { title: 'B', path: 'b', pages: [{ title: 'Child', path: 'b/child', pages: [] }] },
      { title: 'Alpha', path: 'alpha', pages: [] },
    ]);
    // index alone reorders among the siblings
    await server.as(fx.admin.token).patch(`${prefix}/page/${b.id}`).send({ index: 1 }).expect(200);
    expect(((await tree(fx.admin.token, prefix)) as Json[]).map((p) => p.title)).toEqual(['Alpha', 'B']);

    const cycle = await server
      .as(fx.admin.token)
      .patch(`${prefix}/page/${b.id}`)
      .send({ parent: child.id })
      .expect(409);
    expect(cycle.body.error.message).toBe('parent: a page cannot move under itself or one of its descendants');
    expect(
      (await server.as(fx.admin.token).patch(`${prefix}/page/nope`).send({ title: 'X' }).expect(404)).body.error
        .message,
    ).toBe('page not found');
  });

  it('DELETE {content}/page/{pageId} removes the page and its subtree; a page not in the content is 404', async () => {
    const a = await createPage(server, fx.admin.token, prefix, { title: 'A' });
    const child = await createPage(server, fx.admin.token, prefix, { title: 'Child', parent: a.id });
    await createPage(server, fx.admin.token, prefix, { title: 'B' });
    await server.as(fx.admin.token).delete(`${prefix}/page/${a.id}`).expect(204);
    expect(await tree(fx.admin.token, prefix)).toEqual([{ title: 'B', path: 'b', pages: [] }]);
    await server.as(fx.admin.token).get(`${prefix}/page/${child.id}`).expect(404);
    // a DELETE of what is not there answers 204, as for what the caller may not see
    await server.as(fx.admin.token).delete(`${prefix}/page/${a.id}`).expect(204);
  });

  it('POST {content}/files stores the raw bytes (content addressed) with image dimensions; the download URL serves them', async () => {
    const bytes = png(4, 3);
    const res = await upload(server, fx.admin.token, prefix, 'diagram.png', bytes, 'image/png').expect(201);
    expect(res.headers.location).toBe(`${canonicalPrefix(server, form, fx)}/files/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'diagram.png',
      contentType: 'image/png',
      downloadURL: expect.any(String),
      size: bytes.length,
      dimensions: { width: 4, height: 3 },
    });
    const url = new URL(res.body.downloadURL);
    expect(url.pathname).toMatch(new RegExp(`^/v1/blobs/files/${fx.space.id}/[0-9a-f]{64}$`));
    const fetched = await download(server, res.body.downloadURL).expect(200);
    expect(fetched.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(fetched.body, bytes)).toBe(0);

    // the same bytes under another name: a new file, the same blob
    const copy = await upload(server, fx.admin.token, prefix, 'copy.png', bytes, 'image/png').expect(201);
    expect(copy.body.id).not.toBe(res.body.id);
    expect(new URL(copy.body.downloadURL).pathname).toBe(url.pathname);

    const text = await upload(
      server,
      fx.admin.token,
      prefix,
      'data.bin',
      Buffer.from([0, 1, 2, 3]),
      'application/octet-stream',
    ).expect(201);
    expect(text.body).not.toHaveProperty('dimensions');
    expect(
      (await server.as(fx.admin.token).get(`${prefix}/files`).expect(200)).body.items.map((f: Json) => f.name),
    ).toEqual(['copy.png', 'data.bin', 'diagram.png']);
  });

  it('refuses an upload without a name, with a bad name, empty, or sent as JSON', async () => {
    const noName = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(400);
    expect(noName.body.error.message).toBe(
      'name: is required for raw bytes: add ?name=logo.png, or send multipart/form-data, whose file part carries its filename',
    );
    const slash = await upload(server, fx.admin.token, prefix, 'a/b.txt', Buffer.from('x'), 'text/plain').expect(400);
    expect(slash.body.error.message).toBe('name: has an invalid format');
    const long = await upload(server, fx.admin.token, prefix, 'n'.repeat(256), Buffer.from('x'), 'text/plain').expect(
      400,
    );
    expect(long.body.error.message).toBe('name: must be at most 255 characters');
    const empty = await upload(server, fx.admin.token, prefix, 'e.txt', Buffer.alloc(0), 'text/plain').expect(400);
    expect(empty.body.error.message).toBe('file: must not be empty');
    const json = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .query({ name: 'x.json' })
      .send({ a: 1 })
      .expect(415);
    expect(json.body.error.message).toMatch(
      /^request body: Content-Type application\/json cannot carry a file: send the file as multipart\/form-data/,
    );
    const notGzip = await upload(server, fx.admin.token, prefix, 'z.txt', Buffer.from('not gzip'), 'text/plain')
      .set('Content-Encoding', 'gzip')
      .expect(400);
    expect(notGzip.body.error.message).toBe(
      'request body: cannot be decoded (check Content-Encoding and Content-Length)',
    );
    expect((await server.as(fx.admin.token).get(`${prefix}/files`).expect(200)).body.count).toBe(0);
  });

  it('DELETE {content}/files/{fileId} removes the file; a file not in the content is 404', async () => {
    const file = (await upload(server, fx.admin.token, prefix, 'a.txt', Buffer.from('a'), 'text/plain').expect(201))
      .body;
    await server.as(fx.admin.token).delete(`${prefix}/files/${file.id}`).expect(204);
    await server.as(fx.admin.token).get(`${prefix}/files/${file.id}`).expect(404);
    await server.as(fx.admin.token).delete(`${prefix}/files/${file.id}`).expect(204);
  });

  it('refuses bad page bodies with 400 naming the field', async () => {
    const page = await createPage(server, fx.admin.token, prefix, { title: 'P' });
    const create: Array<[object, string]> = [
      [{}, 'title: is required'],
      [{ title: '   ' }, 'title: must be at least 1 character'],
      [{ title: 't'.repeat(257) }, 'title: must be at most 256 characters'],
      [{ title: 5 }, 'title: must be a string, not number'],
      [{ title: 'T', markdown: 'm'.repeat(1_000_001) }, 'markdown: must be at most 1000000 characters'],
      [{ title: 'T', emoji: 'e'.repeat(51) }, 'emoji: must be at most 50 characters'],
      [
        { title: 'T', emoji: '🚀🚀' },
        'emoji: must be one emoji, as its character(s) (🚀) or its code points in hexadecimal joined by - (1f680)',
      ],
      [{ title: 'T', description: 'd'.repeat(513) }, 'description: must be at most 512 characters'],
      [{ title: 'T', hidden: 'yes' }, 'hidden: must be a boolean, not string'],
      [{ title: 'T', index: -1 }, 'index: must be at least 0'],
      [{ title: 'T', index: 1.5 }, 'index: must be an integer, not float'],
      [{ title: 'T', index: 2 }, 'index: must be at most 1'],
      [{ title: 'T', parent: 'nope' }, 'parent: no such page in this content'],
      [
        { title: 'T', slug: 't' },
        'slug: unknown field; accepted: title, parent, index, markdown, emoji, description, hidden',
      ],
      [
        { title: 'T', id: 'x' },
        'id: unknown field; accepted: title, parent, index, markdown, emoji, description, hidden',
      ],
    ];
    for (const [body, message] of create) {
      const res = await server.as(fx.admin.token).post(`${prefix}/pages`).send(body);
      expect({ body, status: res.status, error: res.body.error?.message }).toEqual({
        body,
        status: 400,
        error: message,
      });
    }
    const patch: Array<[object, string]> = [
      [{}, 'request body: must have at least one field'],
      [{ title: '' }, 'title: must be at least 1 character'],
      [{ parent: 'nope' }, 'parent: no such page in this content'],
      [{ hidden: null }, 'hidden: must be a boolean, not null'],
      [{ urls: {} }, 'urls: unknown field; accepted: title, markdown, emoji, description, hidden, parent, index'],
    ];
    for (const [body, message] of patch) {
      const res = await server.as(fx.admin.token).patch(`${prefix}/page/${page.id}`).send(body);
      expect({ body, status: res.status, error: res.body.error?.message }).toEqual({
        body,
        status: 400,
        error: message,
      });
    }
    const notJson = await server
      .as(fx.admin.token)
      .post(`${prefix}/pages`)
      .set('Content-Type', 'text/plain')
      .send('title')
      .expect(415);
    expect(notJson.body.error.message).toBe('request body: Content-Type must be application/json');
    expect(await tree(fx.admin.token, prefix)).toEqual([{ title: 'P', path: 'p', pages: [] }]);
  });

  it('a read member gets 403 on every write; a member of another organization gets 404', async () => {
    const page = await createPage(server, fx.admin.token, prefix, { title: 'P' });
    const file = (await upload(server, fx.admin.token, prefix, 'f.txt', Buffer.from('f'), 'text/plain').expect(201))
      .body;
    const reader = await addMember(server.ds, fx.org, 'read');
    const other = await createOrg(server.ds);
    const writes = (token: string) => [
      server.as(token).post(`${prefix}/pages`).send({ title: 'X' }),
      server.as(token).patch(`${prefix}/page/${page.id}`).send({ title: 'X' }),
      server.as(token).delete(`${prefix}/page/${page.id}`),
      upload(server, token, prefix, 'x.txt', Buffer.from('x'), 'text/plain'),
      server.as(token).delete(`${prefix}/files/${file.id}`),
    ];
    for (const res of await Promise.all(writes(reader.token)))
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: { error: { code: 403, message: 'you need the "edit" permission on this space' } },
      });
    // the DELETEs (third and fifth) answer 204 and change nothing, as for an unknown page or file
    const foreign = (await Promise.all(writes(other.admin.token))) as Array<{ status: number; body: unknown }>;
    for (let i = 0; i < foreign.length; i++)
      expect({ status: foreign[i].status, body: foreign[i].body }).toEqual(
        i === 2 || i === 4
          ? { status: 204, body: {} }
          : { status: 404, body: { error: { code: 404, message: 'space not found' } } },
      );
    expect(await tree(fx.admin.token, prefix)).not.toEqual([]);
    const editor = await addMember(server.ds, fx.org, 'edit');
    await server.as(editor.token).patch(`${prefix}/page/${page.id}`).send({ title: 'Edited' }).expect(200);
    expect(await tree(fx.admin.token, prefix)).toEqual([{ title: 'Edited', path: 'edited', pages: [] }]);
  });
});

describe('content writes: heads', () => {
  it('a locked space refuses direct writes with 409 and still takes change request writes', async () => {
    const fx = await contentFixture(server);
    const [space, cr] = CONTENT_FORMS.map((f) => f.prefix(fx));
    const page = await createPage(server, fx.admin.token, space, { title: 'P' });
    await server.as(fx.admin.token).patch(`/v1/spaces/${fx.space.id}`).send({ editMode: 'locked' }).expect(200);
    const attempts = [
      server.as(fx.admin.token).post(`${space}/pages`).send({ title: 'X' }),
      server.as(fx.admin.token).patch(`${space}/page/${page.id}`).send({ title: 'X' }),
      server.as(fx.admin.token).delete(`${space}/page/${page.id}`),
      upload(server, fx.admin.token, space, 'x.txt', Buffer.from('x'), 'text/plain'),
    ];
    for (const res of await Promise.all(attempts))
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: { error: { code: 409, message: 'the space is locked: edit it through a change request' } },
      });
    expect(await tree(fx.admin.token, space)).toEqual([{ title: 'P', path: 'p', pages: [] }]);
    await createPage(server, fx.admin.token, cr, { title: 'Through the change request' });
  });

  it('change request writes leave the space content as it was; an archived change request refuses writes with 409', async () => {
    const fx = await contentFixture(server);
    const [space, cr] = CONTENT_FORMS.map((f) => f.prefix(fx));
    const before = (await server.as(fx.admin.token).get(space).expect(200)).body;
    const page = await createPage(server, fx.admin.token, cr, { title: 'Draft', markdown: 'x' });
    await server.as(fx.admin.token).patch(`${cr}/page/${page.id}`).send({ markdown: 'y' }).expect(200);
    await upload(server, fx.admin.token, cr, 'f.txt', Buffer.from('f'), 'text/plain').expect(201);
    expect((await server.as(fx.admin.token).get(space).expect(200)).body).toEqual(before);
    expect((await server.as(fx.admin.token).get(cr).expect(200)).body.pages.map((p: Json) => p.title)).toEqual([
      'Draft',
    ]);
    await server.as(fx.admin.token).get(`${space}/page/${page.id}`).expect(404);

    await inTransaction(server.ds, (db) => updateChangeRequest(db, fx.changeRequest.id, { status: 'archived' }));
    const refused = await server.as(fx.admin.token).post(`${cr}/pages`).send({ title: 'Late' }).expect(409);
    expect(refused.body.error.message).toBe('the change request is archived: its content can no longer change');
  });

  it('answers 413 naming the limit for an upload over FILE_MAX_BYTES', async () => {
    const small = await startServer({ blobs: { ...loadConfig().blobs, fileMaxBytes: 16 } });
    try {
      const fx = await contentFixture(small);
      const res = await upload(
        small,
        fx.admin.token,
        CONTENT_FORMS[0].prefix(fx),
        'big.bin',
        Buffer.alloc(17),
        'application/octet-stream',
      ).expect(413);
      expect(res.body).toEqual({ error: { code: 413, message: 'request body: must be at most 16 bytes' } });
      await upload(
        small,
        fx.admin.token,
        CONTENT_FORMS[0].prefix(fx),
        'ok.bin',
        Buffer.alloc(16, 1),
        'application/octet-stream',
      ).expect(201);
    } finally {
      await small.close();
    }
  });

  it('answers 401 without a valid token', async () => {
    const fx = await contentFixture(server);
    for (const form of CONTENT_FORMS) {
      await server
        .as('garbage')
        .post(`${form.prefix(fx)}/pages`)
        .send({ title: 'X' })
        .expect(401);
      await upload(server, 'garbage', form.prefix(fx), 'x.txt', Buffer.from('x'), 'text/plain').expect(401);
    }
  });
});
