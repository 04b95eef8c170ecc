/** What changed in a revision, and what a change request changes: GitBook's semantic changes. */
import request from 'supertest';
import { insertRevision } from '../../domain/content/revisions';
import { Revision } from '../../entities/Revision';
import { addMember, createOrg } from '../factories';
import { Json, newChangeRequest, newSpace } from '../support/api';
import { createPage, png, upload } from '../support/content-forms';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

/** The changes in a short form: type and the page's or file's title, or the variables' names. */
const brief = (changes: Json[]) =>
  changes.map((c) => `${c.type} ${c.page?.title ?? c.file?.name ?? Object.keys(c.variables ?? {}).join(',')}`);

describe('semantic changes', () => {
  it('follows a change request: merged, its revision read by id lists exactly what it changed, the one before reads as it was', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const content = `/v1/spaces/${space.id}/content`;
    const guide = await createPage(server, fx.admin.token, content, { title: 'Guide', markdown: 'Version 1' });
    const faq = await createPage(server, fx.admin.token, content, { title: 'FAQ', markdown: 'Ask' });
    await createPage(server, fx.admin.token, content, { title: 'Untouched', markdown: 'Same' });
    const before = (await server.as(fx.admin.token).get(content).expect(200)).body;

    const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Rework' });
    const crContent = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    await server.as(fx.admin.token).patch(`${crContent}/page/${guide.id}`).send({ markdown: 'Version 2' }).expect(200);
    await createPage(server, fx.admin.token, crContent, { title: 'Install', markdown: 'npm i' });
    await server.as(fx.admin.token).patch(`${crContent}/page/${faq.id}`).send({ parent: guide.id }).expect(200);

    const api = client(fx.admin.token).spaces;
    const expected = ['page_created Install', 'page_edited Guide', 'page_moved FAQ'];
    const proposed = (await api.getChangeRequestChanges(space.id, cr.id)).data;
    expect(brief(proposed.changes as Json[])).toEqual(expected);

    // 1. merged
    await server.as(fx.admin.token).post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).expect(200);
    // 2. the merged revision, read by id
    const mergedId = (await server.as(fx.admin.token).get(content).expect(200)).body.id;
    const merged = (await api.getRevisionById(space.id, mergedId)).data;
    expect(merged).toMatchObject({ type: 'merge', parents: [before.id, expect.any(String)] });
    expect((merged as Json).mergedFrom).toMatchObject({ id: cr.id });
    // 3. its changes: exactly the edited, created and moved pages
    const changes = (await api.getRevisionSemanticChanges(space.id, mergedId)).data;
    expect(brief(changes.changes as Json[])).toEqual(expected);
    expect(changes.more).toBe(0);
    expect(changes.mergedFrom).toMatchObject({ id: cr.id, status: 'merged' });
    const [created, edited, moved] = changes.changes as Json[];
    expect(created.page).toEqual({ id: expect.any(String), type: 'document', title: 'Install', path: 'install' });
    expect(Object.keys(edited.attributes)).toEqual(['document']);
    expect(edited.attributes.document.before).not.toBe(edited.attributes.document.after);
    expect(moved).toEqual({
      type: 'page_moved',
      page: { id: faq.id, type: 'document', title: 'FAQ', path: 'guide/faq' },
      parent: { after: { id: guide.id, type: 'document', title: 'Guide', path: 'guide' } },
    });
    // 4. the revision before it still reads as it was
    const old = (await api.getRevisionById(space.id, before.id)).data;
    expect(old.pages.map((p) => p.title)).toEqual(['Guide', 'FAQ', 'Untouched']);
    expect(((await api.getPageInRevisionById(space.id, before.id, guide.id)).data as Json).markdown).toBe('Version 1');
  });

  it('names renamed, reordered and deleted pages, created, edited and deleted files, and edited variables; limit leaves the rest to more', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const content = `/v1/spaces/${space.id}/content`;
    const a = await createPage(server, fx.admin.token, content, { title: 'Alpha', emoji: '🚀' });
    const b = await createPage(server, fx.admin.token, content, { title: 'Beta' });
    const c = await createPage(server, fx.admin.token, content, { title: 'Gamma' });
    const keep = (await upload(server, fx.admin.token, content, 'keep.png', png(2, 2), 'image/png').expect(201)).body;
    const drop = (await upload(server, fx.admin.token, content, 'drop.txt', Buffer.from('x'), 'text/plain').expect(201))
      .body;
    const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Many' });
    const crContent = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    await server
      .as(fx.admin.token)
      .patch(`${crContent}/page/${a.id}`)
      .send({ title: 'Aleph', emoji: null })
      .expect(200);
    await server.as(fx.admin.token).patch(`${crContent}/page/${c.id}`).send({ index: 0 }).expect(200);
    await server.as(fx.admin.token).delete(`${crContent}/page/${b.id}`).expect(204);
    await server.as(fx.admin.token).delete(`${crContent}/files/${drop.id}`).expect(204);
    await upload(server, fx.admin.token, crContent, 'new.txt', Buffer.from('new'), 'text/plain').expect(201);

    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/changes`;
    const all = (await server.as(fx.admin.token).get(`${path}?limit=100`).expect(200)).body;
    expect(brief(all.changes)).toEqual([
      'page_edited Aleph',
      'page_moved Gamma',
      'page_deleted Beta',
      'file_created new.txt',
      'file_deleted drop.txt',
    ]);
    expect(all.changes[0].attributes).toEqual({
      title: { before: 'Alpha', after: 'Aleph' },
      slug: { before: 'alpha', after: 'aleph' },
      emoji: { before: '🚀' },
      // the body did not change: the same id on both sides
      document: { before: expect.any(String), after: all.changes[0].attributes.document.before },
    });
    expect(all.changes[1].parent).toEqual({});
    expect(all.changes[2].page).toMatchObject({ id: b.id, path: 'beta' });
    expect(all.changes[4].file).toMatchObject({ id: drop.id, name: 'drop.txt', contentType: 'text/plain' });
    expect(all.changes[4].file.downloadURL).toBeTruthy();
    expect(all.changes.some((ch: Json) => ch.file?.id === keep.id)).toBe(false);

    const two = (await server.as(fx.admin.token).get(`${path}?limit=2`).expect(200)).body;
    expect({ changes: brief(two.changes), more: two.more }).toEqual({
      changes: ['page_edited Aleph', 'page_moved Gamma'],
      more: 3,
    });
    // GitBook's default: ten
    expect((await server.as(fx.admin.token).get(path).expect(200)).body.changes).toHaveLength(5);

    // the change request's head revision, against its first parent: the file upload alone
    const head = (await server.as(fx.admin.token).get(crContent).expect(200)).body.id;
    const last = (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/revisions/${head}/changes`).expect(200))
      .body;
    expect(brief(last.changes)).toEqual(['file_created new.txt']);
    // variables: a revision of the same content carrying others
    const headRow = await server.ds.manager.findOneByOrFail(Revision, { id: head });
    const withVariables = await insertRevision(server.ds.manager, {
      spaceId: space.id,
      changeRequestId: cr.id,
      parents: [head],
      type: 'edits',
      root: headRow.root,
      variables: { product: 'Docs' },
      createdById: null,
    });
    const edited = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/revisions/${withVariables.id}/changes`)
      .expect(200);
    expect(edited.body.changes).toEqual([{ type: 'variables_edited', variables: { product: { after: 'Docs' } } }]);
    // a first revision, against an empty content: nothing
    const initial = await server.ds.manager.findOneByOrFail(Revision, { spaceId: space.id, type: 'initial' });
    const none = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/revisions/${initial.id}/changes`)
      .expect(200);
    expect(none.body).toEqual({ changes: [], more: 0 });
  });

  it('refuses a bad limit with 400, answers 401 without a token, and 404 to another organization or for a revision of another space', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const content = `/v1/spaces/${space.id}/content`;
    await createPage(server, fx.admin.token, content, { title: 'P' });
    const revision = (await server.as(fx.admin.token).get(content).expect(200)).body.id;
    const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'S' });
    const paths = [
      `/v1/spaces/${space.id}/revisions/${revision}/changes`,
      `/v1/spaces/${space.id}/change-requests/${cr.id}/changes`,
    ];
    for (const path of paths) {
      for (const limit of ['0', '1001', 'ten']) {
        const res = await server.as(fx.admin.token).get(`${path}?limit=${limit}`).expect(400);
        expect(res.body.error.message).toMatch(/^limit: /);
      }
      await request(server.app).get(path).expect(401);
      const other = await createOrg(server.ds);
      expect((await server.as(other.admin.token).get(path).expect(404)).body.error.message).toBe('space not found');
      const reader = await addMember(server.ds, fx.org, 'read');
      await server.as(reader.token).get(path).expect(200);
    }
    const elsewhere = await newSpace(server, fx.admin, fx.org.id);
    const res = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${elsewhere.id}/revisions/${revision}/changes`)
      .expect(404);
    expect(res.body.error.message).toBe('revision not found');
    await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/change-requests/999/changes`).expect(404);
  });
});
