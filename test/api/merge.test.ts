/**
 * Merging change requests and updating them from their space, through the API. Content is written
 * with the content core (test/support/heads.ts) on both the space head and the change request head.
 */
import type { ContentEditor } from '../../domain/content/editor';
import { Revision } from '../../entities/Revision';
import { SearchSection } from '../../entities/SearchSection';
import { createOrg, OrgFixture } from '../factories';
import { Json, newSpace } from '../support/api';
import { readRevision, writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();

const FIVE_LINES = 'one\ntwo\nthree\nfour\nfive';

describe('merge and update', () => {
  let fx: OrgFixture;
  let space: Json;
  const api = () => server.as(fx.admin.token);
  const crPath = (cr: Json, action = '') => `/v1/spaces/${space.id}/change-requests/${cr.id}${action}`;

  beforeEach(async () => {
    fx = await createOrg(server.ds);
    space = await newSpace(server, fx.admin, fx.org.id);
  });

  const onSpace = <T>(edit: (e: ContentEditor) => Promise<T>) =>
    writeHead(server, { kind: 'space', spaceId: space.id }, fx.admin.user.id, edit);
  const onChangeRequest = <T>(cr: Json, edit: (e: ContentEditor) => Promise<T>) =>
    writeHead(server, { kind: 'change-request', changeRequestId: cr.id }, fx.admin.user.id, edit);
  const newChangeRequest = async (): Promise<Json> =>
    (await api().post(`/v1/spaces/${space.id}/change-requests`).send({ subject: 'Work' }).expect(201)).body;
  const spaceNow = async (): Promise<Json> => (await api().get(`/v1/spaces/${space.id}`).expect(200)).body;
  const changeRequestNow = async (cr: Json): Promise<Json> => (await api().get(crPath(cr)).expect(200)).body;
  const spaceRevisionCount = () => server.ds.manager.countBy(Revision, { spaceId: space.id });

  /** A space with one page, and a change request opened on top of it. */
  async function pageAndChangeRequest(markdown = FIVE_LINES): Promise<{ pageId: string; cr: Json }> {
    const { result: pageId } = await onSpace((e) => e.createPage({ title: 'A', markdown }));
    return { pageId, cr: await newChangeRequest() };
  }

  /** Merging must have written nothing: same space revision, change request still open, same counters. */
  async function expectNothingMerged(cr: Json, before: { space: Json; revisions: number }): Promise<void> {
    const after = await spaceNow();
    expect(after.revision).toBe(before.space.revision);
    expect({ changeRequests: after.changeRequests, open: after.changeRequestsOpen }).toEqual({
      changeRequests: before.space.changeRequests,
      open: before.space.changeRequestsOpen,
    });
    expect(await spaceRevisionCount()).toBe(before.revisions);
    const current = await changeRequestNow(cr);
    expect(current.status).toBe('open');
    expect(current).not.toHaveProperty('revisionMerged');
  }

  it('merges a new page into the space: a merge revision with two parents, indexed, and the change request merged', async () => {
    const { result: homeId } = await onSpace((e) => e.createPage({ title: 'Home', markdown: 'welcome' }));
    const cr = await newChangeRequest();
    const { result: guideId, revision: crRevision } = await onChangeRequest(cr, (e) =>
      e.createPage({ title: 'Guide', markdown: '# Install\nrun it' }),
    );
    const spaceBefore = (await spaceNow()).revision;
    expect((await spaceNow()).changeRequestsOpen).toBe(1);

    const res = await api().post(`/v1/spaces/${space.id}/change-requests/${cr.number}/merge`).expect(200);
    expect(res.body).toEqual({ revision: expect.any(String), result: 'merge' });
    const merged = await server.ds.manager.findOneByOrFail(Revision, { id: res.body.revision });
    expect(merged).toMatchObject({
      type: 'merge',
      parents: [spaceBefore, crRevision.id],
      spaceId: space.id,
      changeRequestId: cr.id,
      createdById: fx.admin.user.id,
    });

    const after = await spaceNow();
    expect(after).toMatchObject({
      revision: res.body.revision,
      changeRequests: 1,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    const content = await readRevision(server, after.revision);
    expect((await content.tree()).map((p) => [p.id, p.path])).toEqual([
      [homeId, 'home'],
      [guideId, 'guide'],
    ]);
    expect((await content.page(guideId))?.version.markdown).toBe('# Install\nrun it');
    const indexed = await server.ds.manager.findBy(SearchSection, { spaceId: space.id, pageId: guideId });
    expect(indexed.map((s) => s.title)).toContain('Install');

    const done = await changeRequestNow(cr);
    expect(done).toMatchObject({
      status: 'merged',
      revisionMerged: res.body.revision,
      revision: crRevision.id,
      outdated: false,
    });
    expect(
      (
        await api().get(`/v1/spaces/${space.id}/change-requests`).query({ status: 'merged' }).expect(200)
      ).body.items.map((i: Json) => i.id),
    ).toEqual([cr.id]);
  });

  it('merges content written through the content endpoints on both heads', async () => {
    const pages = `/v1/spaces/${space.id}/content`;
    const page = (await api().post(`${pages}/pages`).send({ title: 'A', markdown: FIVE_LINES }).expect(201)).body;
    const cr = await newChangeRequest();
    const crPages = `${crPath(cr)}/content`;
    await api().patch(`${crPages}/page/${page.id}`).send({ markdown: 'ONE\ntwo\nthree\nfour\nfive' }).expect(200);
    const added = (await api().post(`${crPages}/pages`).send({ title: 'Added', markdown: 'new page' }).expect(201))
      .body;
    await api().patch(`${pages}/page/${page.id}`).send({ markdown: 'one\ntwo\nthree\nfour\nFIVE' }).expect(200);
    await api().get(`${pages}/page/${added.id}`).expect(404);

    const res = await api().post(crPath(cr, '/merge')).expect(200);
    const content = (await api().get(pages).expect(200)).body;
    expect(content.id).toBe(res.body.revision);
    expect(content.pages.map((p: Json) => [p.id, p.title])).toEqual([
      [page.id, 'A'],
      [added.id, 'Added'],
    ]);
    expect((await api().get(`${pages}/page/${page.id}`).expect(200)).body.markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE');
  });

  it('merges edits of the same page on both sides in different lines', async () => {
    const { pageId, cr } = await pageAndChangeRequest();
    await onChangeRequest(cr, (e) => e.updatePage(pageId, { markdown: 'ONE\ntwo\nthree\nfour\nfive' }));
    await onSpace((e) => e.updatePage(pageId, { markdown: 'one\ntwo\nthree\nfour\nFIVE' }));
    expect((await changeRequestNow(cr)).outdated).toBe(true);
    const res = await api().post(crPath(cr, '/merge')).expect(200);
    const page = await (await readRevision(server, res.body.revision)).page(pageId);
    expect(page?.version.markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE');
  });

  it('refuses a true conflict with 409 listing the page, writing nothing', async () => {
    const { pageId, cr } = await pageAndChangeRequest();
    await onChangeRequest(cr, (e) => e.updatePage(pageId, { markdown: 'one\nTWO\nthree\nfour\nfive' }));
    await onSpace((e) => e.updatePage(pageId, { markdown: 'one\n2\nthree\nfour\nfive' }));
    const before = { space: await spaceNow(), revisions: await spaceRevisionCount() };
    const res = await api().post(crPath(cr, '/merge')).expect(409);
    expect(res.body).toEqual({
      error: {
        code: 409,
        message: 'the merge has conflicts in 1 page(s)',
        conflicts: [{ page: pageId, title: 'A', reason: 'the same lines were edited on both sides' }],
      },
    });
    await expectNothingMerged(cr, before);
    // the same conflict stops an update from the space
    const update = await api().post(crPath(cr, '/update')).expect(409);
    expect(update.body.error.conflicts).toEqual([
      { page: pageId, title: 'A', reason: 'the same lines were edited on both sides' },
    ]);
  });

  it('refuses an edit against a delete with 409', async () => {
    const { pageId, cr } = await pageAndChangeRequest();
    await onChangeRequest(cr, (e) => e.deletePage(pageId));
    await onSpace((e) => e.updatePage(pageId, { markdown: 'edited live' }));
    const before = { space: await spaceNow(), revisions: await spaceRevisionCount() };
    const res = await api().post(crPath(cr, '/merge')).expect(409);
    expect(res.body.error.conflicts).toEqual([
      { page: pageId, title: 'A', reason: 'edited on one side and deleted on the other' },
    ]);
    await expectNothingMerged(cr, before);
  });

  it('merges a move on one side against an edit on the other', async () => {
    const { result: ids } = await onSpace(async (e) => ({
      parent: await e.createPage({ title: 'Parent' }),
      child: await e.createPage({ title: 'Child', markdown: 'old' }),
    }));
    const cr = await newChangeRequest();
    await onChangeRequest(cr, (e) => e.movePage(ids.child, { parent: ids.parent }));
    await onSpace((e) => e.updatePage(ids.child, { markdown: 'new' }));
    const res = await api().post(crPath(cr, '/merge')).expect(200);
    const content = await readRevision(server, res.body.revision);
    const child = await content.page(ids.child);
    expect({ parent: child?.entry.parent, path: child?.path, markdown: child?.version.markdown }).toEqual({
      parent: ids.parent,
      path: 'parent/child',
      markdown: 'new',
    });
    expect(await content.childIds(null)).toEqual([ids.parent]);
  });

  it('updates from the space (ancestor recorded, outdated cleared), then merges', async () => {
    const { pageId, cr } = await pageAndChangeRequest();
    const { revision: crEdit } = await onChangeRequest(cr, (e) =>
      e.updatePage(pageId, { markdown: 'ONE\ntwo\nthree\nfour\nfive' }),
    );
    expect((await changeRequestNow(cr)).outdated).toBe(false);
    const { revision: spaceEdit } = await onSpace((e) =>
      e.updatePage(pageId, { markdown: 'one\ntwo\nthree\nfour\nFIVE' }),
    );
    expect((await changeRequestNow(cr)).outdated).toBe(true);

    const res = await api().post(crPath(cr, '/update')).expect(200);
    expect(res.body).toEqual({ revision: expect.any(String), result: 'update' });
    expect(await server.ds.manager.findOneByOrFail(Revision, { id: res.body.revision })).toMatchObject({
      type: 'update',
      parents: [crEdit.id, spaceEdit.id],
      changeRequestId: cr.id,
    });
    const updated = await changeRequestNow(cr);
    expect(updated).toMatchObject({
      revision: res.body.revision,
      revisionInitial: cr.revisionInitial,
      revisionMergedAncestor: spaceEdit.id,
      outdated: false,
      status: 'open',
    });
    expect((await (await readRevision(server, res.body.revision)).page(pageId))?.version.markdown).toBe(
      'ONE\ntwo\nthree\nfour\nFIVE',
    );
    expect((await spaceNow()).revision).toBe(spaceEdit.id);

    // nothing new to pull: the head stays
    expect((await api().post(crPath(cr, '/update')).expect(200)).body).toEqual({
      revision: res.body.revision,
      result: 'update',
    });

    // the space moves on again; the merge's base is the recorded ancestor, so only the new line is theirs
    await onSpace((e) => e.updatePage(pageId, { markdown: 'one\ntwo\nTHREE\nfour\nFIVE' }));
    expect((await changeRequestNow(cr)).outdated).toBe(true);
    const merged = await api().post(crPath(cr, '/merge')).expect(200);
    expect((await (await readRevision(server, merged.body.revision)).page(pageId))?.version.markdown).toBe(
      'ONE\ntwo\nTHREE\nfour\nFIVE',
    );
    expect(await changeRequestNow(cr)).toMatchObject({
      status: 'merged',
      revisionMerged: merged.body.revision,
      revisionMergedAncestor: spaceEdit.id,
      outdated: false,
    });
  });

  it('refuses to merge or update a merged change request, and to merge an archived one', async () => {
    const { cr } = await pageAndChangeRequest();
    await api().post(crPath(cr, '/merge')).expect(200);
    const again = await api().post(crPath(cr, '/merge')).expect(409);
    expect(again.body).toEqual({ error: { code: 409, message: 'the change request is already merged' } });
    const update = await api().post(crPath(cr, '/update')).expect(409);
    expect(update.body.error.message).toBe('the change request is merged: its content can no longer change');

    const archived = await newChangeRequest();
    await api().patch(crPath(archived)).send({ status: 'archived' }).expect(200);
    expect((await api().post(crPath(archived, '/merge')).expect(409)).body.error.message).toBe(
      'the change request is archived: reopen it before merging',
    );
  });

  it('refuses to merge into a locked space, writing nothing', async () => {
    const { pageId, cr } = await pageAndChangeRequest();
    await onChangeRequest(cr, (e) => e.updatePage(pageId, { title: 'Renamed' }));
    await api().patch(`/v1/spaces/${space.id}`).send({ editMode: 'locked' }).expect(200);
    const before = { space: await spaceNow(), revisions: await spaceRevisionCount() };
    const res = await api().post(crPath(cr, '/merge')).expect(409);
    expect(res.body).toEqual({ error: { code: 409, message: 'the space is locked: merges are refused' } });
    await expectNothingMerged(cr, before);
    await api().patch(`/v1/spaces/${space.id}`).send({ editMode: 'live' }).expect(200);
    const merged = await api().post(crPath(cr, '/merge')).expect(200);
    expect((await (await readRevision(server, merged.body.revision)).page(pageId))?.entry.title).toBe('Renamed');
  });
});
