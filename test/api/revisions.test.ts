/** Reading a revision by id: the same answers as the head reads gave when it was the head, whatever came after. */
import request from 'supertest';
import { insertRevision } from '../../domain/content/revisions';
import { Revision } from '../../entities/Revision';
import { addMember, createOrg } from '../factories';
import { Json, newSpace } from '../support/api';
import { contentFixture, createPage, png, upload } from '../support/content-forms';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

/** Strips what differs between two reads of the same content: signed URLs and app URLs of the form. */
function sameContent(body: Json): Json {
  return JSON.parse(
    JSON.stringify(body, (key, value) => (key === 'downloadURL' || key === 'app' ? undefined : value)),
  ) as Json;
}

describe('revisions by id', () => {
  it('a past revision reads as the head read when it was the head, through every read', async () => {
    const fx = await contentFixture(server);
    const content = `/v1/spaces/${fx.space.id}/content`;
    const guide = await createPage(server, fx.admin.token, content, {
      title: 'Guide',
      markdown: '# Hello {{ variables.who }}',
    });
    const install = await createPage(server, fx.admin.token, content, {
      title: 'Install',
      parent: guide.id,
      markdown: 'npm i',
    });
    const logo = (await upload(server, fx.admin.token, content, 'logo.png', png(3, 2), 'image/png').expect(201)).body;
    const then = {
      revision: (await server.as(fx.admin.token).get(content).expect(200)).body,
      pages: (await server.as(fx.admin.token).get(`${content}/pages`).expect(200)).body,
      page: (await server.as(fx.admin.token).get(`${content}/page/${guide.id}?format=document`).expect(200)).body,
      byPath: (await server.as(fx.admin.token).get(`${content}/path/guide/install`).expect(200)).body,
      file: (await server.as(fx.admin.token).get(`${content}/files/${logo.id}`).expect(200)).body,
    };
    // the space moves on: an edit, a new page, a deleted file
    await server
      .as(fx.admin.token)
      .patch(`${content}/page/${guide.id}`)
      .send({ title: 'Manual', markdown: 'changed' })
      .expect(200);
    await createPage(server, fx.admin.token, content, { title: 'Later' });
    await server.as(fx.admin.token).delete(`${content}/files/${logo.id}`).expect(204);

    const api = client(fx.admin.token).spaces;
    const id = then.revision.id;
    const revision = (await api.getRevisionById(fx.space.id, id)).data;
    expect(sameContent(revision)).toEqual(sameContent(then.revision));
    expect(revision.urls.app).toBe(then.revision.urls.app);
    const pages = (await api.listPagesInRevisionById(fx.space.id, id)).data;
    expect(sameContent(pages)).toEqual(sameContent(then.pages));
    // a page of the revision is seen at the revision's own app URL
    expect((pages.pages[0] as Json).urls.app).toBe(
      `${server.config.appBaseUrl}/o/${fx.org.id}/s/${fx.space.id}/~/revisions/${id}/guide`,
    );
    const page = (await api.getPageInRevisionById(fx.space.id, id, guide.id, { format: 'document' })).data;
    expect(sameContent(page)).toEqual(sameContent(then.page));
    const byPath = (await api.getPageInRevisionByPath(fx.space.id, id, 'guide/install')).data;
    expect(sameContent(byPath)).toEqual(sameContent(then.byPath));
    expect(byPath.id).toBe(install.id);
    const files = (await api.listFilesInRevisionById(fx.space.id, id)).data;
    expect(files.items.map((f) => f.id)).toEqual([logo.id]);
    const file = (await api.getFileInRevisionById(fx.space.id, id, logo.id)).data;
    expect(sameContent(file)).toEqual(sameContent(then.file));
    // its bytes are still there to download
    expect(file.downloadURL).toBeTruthy();

    const document = (await api.getPageDocumentInRevisionById(fx.space.id, id, guide.id)).data;
    expect(document).toEqual(then.page.document);
    // the head has moved on
    const now = (await server.as(fx.admin.token).get(`${content}/page/${guide.id}`).expect(200)).body;
    expect(now.title).toBe('Manual');
  });

  it('evaluated fills in the revision variables, in a page and in its document', async () => {
    const fx = await contentFixture(server);
    const content = `/v1/spaces/${fx.space.id}/content`;
    const page = await createPage(server, fx.admin.token, content, {
      title: 'Hi',
      markdown: 'Hello {{ variables.who }}',
    });
    const head = await server.ds.manager.findOneByOrFail(Revision, {
      id: (await server.as(fx.admin.token).get(content)).body.id,
    });
    // a revision of the same content carrying a variable
    const withWho = await insertRevision(server.ds.manager, {
      spaceId: head.spaceId,
      parents: [head.id],
      type: 'edits',
      root: head.root,
      variables: { who: 'World' },
      createdById: null,
    });
    const prefix = `/v1/spaces/${fx.space.id}/revisions/${withWho.id}`;
    const stored = await server.as(fx.admin.token).get(`${prefix}/page/${page.id}/document`).expect(200);
    expect(JSON.stringify(stored.body)).toContain('{{ variables.who }}');
    const evaluated = await server
      .as(fx.admin.token)
      .get(`${prefix}/page/${page.id}/document?evaluated=true`)
      .expect(200);
    expect(JSON.stringify(evaluated.body)).toContain('Hello World');
    const asMarkdown = await server.as(fx.admin.token).get(`${prefix}/page/${page.id}?evaluated=true`).expect(200);
    expect(asMarkdown.body.markdown).toBe('Hello World');
  });

  it("a change request's revision is a revision of its space", async () => {
    const fx = await contentFixture(server);
    const cr = `/v1/spaces/${fx.space.id}/change-requests/${fx.changeRequest.number}/content`;
    const draft = await createPage(server, fx.admin.token, cr, { title: 'Draft', markdown: 'wip' });
    const crRevision = (await server.as(fx.admin.token).get(cr).expect(200)).body.id;
    const res = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${fx.space.id}/revisions/${crRevision}/page/${draft.id}`)
      .expect(200);
    expect(res.body).toMatchObject({ id: draft.id, title: 'Draft', markdown: 'wip' });
  });

  it("answers 404 for a revision of another space (even a valid id), a page or file it lacks, and another organization's caller", async () => {
    const fx = await contentFixture(server);
    const content = `/v1/spaces/${fx.space.id}/content`;
    const page = await createPage(server, fx.admin.token, content, { title: 'P' });
    const revisionId = (await server.as(fx.admin.token).get(content).expect(200)).body.id;
    const elsewhere = await newSpace(server, fx.admin, fx.org.id);
    const elsewhereRevision = (await server.as(fx.admin.token).get(`/v1/spaces/${elsewhere.id}/content`).expect(200))
      .body.id;

    const notFound = async (token: string, path: string, message: string) => {
      const res = await server.as(token).get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: { error: { code: 404, message } },
      });
    };
    for (const suffix of ['', '/pages', `/page/${page.id}`, `/page/${page.id}/document`, '/path/p', '/files'])
      await notFound(
        fx.admin.token,
        `/v1/spaces/${fx.space.id}/revisions/${elsewhereRevision}${suffix}`,
        'revision not found',
      );
    const prefix = `/v1/spaces/${fx.space.id}/revisions/${revisionId}`;
    await notFound(fx.admin.token, `${prefix}/page/nope`, 'page not found');
    await notFound(fx.admin.token, `${prefix}/page/nope/document`, 'page not found');
    await notFound(fx.admin.token, `${prefix}/path/nope`, 'page not found');
    await notFound(fx.admin.token, `${prefix}/files/nope`, 'file not found');
    const other = await createOrg(server.ds);
    for (const suffix of ['', '/pages', `/page/${page.id}`, `/page/${page.id}/document`, '/files'])
      await notFound(other.admin.token, `${prefix}${suffix}`, 'space not found');
    // a reader of the organization reads
    const reader = await addMember(server.ds, fx.org, 'read');
    await server.as(reader.token).get(`${prefix}/page/${page.id}/document`).expect(200);
  });

  it('refuses bad parameters with 400 naming them, and answers 401 without a valid token', async () => {
    const fx = await contentFixture(server);
    const content = `/v1/spaces/${fx.space.id}/content`;
    const page = await createPage(server, fx.admin.token, content, { title: 'P' });
    const prefix = `/v1/spaces/${fx.space.id}/revisions/${(await server.as(fx.admin.token).get(content).expect(200)).body.id}`;
    for (const [path, field] of [
      [`${prefix}/page/${page.id}?format=pdf`, 'format'],
      [`${prefix}/page/${page.id}/document?evaluated=maybe`, 'evaluated'],
      [`${prefix}/files?limit=5000`, 'limit'],
      [`${prefix}?metadata=perhaps`, 'metadata'],
    ]) {
      const res = await server.as(fx.admin.token).get(path).expect(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    await request(server.app).get(prefix).expect(401);
    await server.as('garbage').get(`${prefix}/page/${page.id}/document`).expect(401);
  });
});
