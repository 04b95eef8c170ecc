/** Links and backlinks: the space's link index, a page's links and backlinks in both content forms. */
import { createChangeRequest } from '../../domain/content/change-requests';
import type { Head } from '../../domain/content/heads';
import { addOrUpdateMember } from '../../domain/organizations/membership';
import { ChangeRequest } from '../../entities/ChangeRequest';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newSpace } from '../support/api';
import { grant } from '../support/content';
import { writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();

const FILE = { name: 'logo.png', contentType: 'image/png', size: 3, blob: 'none' };

/**
 * A space whose page "Source" links, in order, to: the page Target by id, a missing page id, the
 * file, a missing file, an external URL, an in-app URL, Target by path.
 */
async function linkedSpace(fx: OrgFixture) {
  const space = await newSpace(server, fx.admin, fx.org.id);
  const head: Head = { kind: 'space', spaceId: space.id };
  const { result: ids } = await writeHead(server, head, fx.admin.user.id, async (e) => {
    const target = await e.createPage({ title: 'Target' });
    const fileId = 'file0000000000000001';
    e.putFile(fileId, FILE);
    const markdown = [
      `[t](page:${target})`,
      '[gone](page:no-such-page)',
      `![f](file:${fileId})`,
      '[nofile](file:no-such-file)',
      '<https://example.com/docs>',
      `[app](${server.config.appBaseUrl}/o/x/s/y)`,
      '[path](/target)',
    ].join('\n\n');
    const source = await e.createPage({ title: 'Source', markdown });
    return { target, source, fileId };
  });
  return { space, head, ...ids };
}

const pageRef = (fx: OrgFixture, space: Json, page: string) => ({
  kind: 'page',
  page,
  space: space.id,
  organization: fx.org.id,
});
/** a page or file reference read in `revision` */
const at = <T extends object>(ref: T, revision: string) => ({ ...ref, versionContext: { type: 'revision', revision } });
const location = (fx: OrgFixture, space: Json, page: string, revision: string) => [
  at(pageRef(fx, space, page), revision),
];

async function headOf(cr: ChangeRequest): Promise<string> {
  return (await server.ds.manager.findOneByOrFail(ChangeRequest, { id: cr.id })).revisionId;
}

async function revisionOf(fx: OrgFixture, spaceId: string): Promise<string> {
  return (await server.as(fx.admin.token).get(`/v1/spaces/${spaceId}`).expect(200)).body.revision;
}

describe('space links', () => {
  it('lists every link with its status, target and location, with stats, and filters by status', async () => {
    const fx = await createOrg(server.ds);
    const { space, target, source, fileId } = await linkedSpace(fx);
    const revision = await revisionOf(fx, space.id);
    const res = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/links`).expect(200);
    const where = location(fx, space, source, revision);
    expect(res.body).toEqual({
      items: [
        {
          status: 'ok',
          relation: 'reference',
          targetReference: at(pageRef(fx, space, target), revision),
          locationReferences: where,
        },
        {
          status: 'broken',
          relation: 'reference',
          targetReference: at(pageRef(fx, space, 'no-such-page'), revision),
          locationReferences: where,
        },
        {
          status: 'ok',
          relation: 'reference',
          targetReference: at({ kind: 'file', file: fileId, space: space.id, organization: fx.org.id }, revision),
          locationReferences: where,
        },
        {
          status: 'broken',
          relation: 'reference',
          targetReference: at(
            { kind: 'file', file: 'no-such-file', space: space.id, organization: fx.org.id },
            revision,
          ),
          locationReferences: where,
        },
        {
          status: 'ok',
          relation: 'reference',
          targetReference: { kind: 'url', url: 'https://example.com/docs' },
          locationReferences: where,
        },
        {
          status: 'in-app',
          relation: 'reference',
          targetReference: { kind: 'url', url: `${server.config.appBaseUrl}/o/x/s/y` },
          locationReferences: where,
        },
        {
          status: 'ok',
          relation: 'reference',
          targetReference: at(pageRef(fx, space, target), revision),
          locationReferences: where,
        },
      ],
      count: 7,
      stats: { total: 7, broken: { total: 2, changeRequest: 0 } },
    });

    const broken = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/links`)
      .query({ status: 'broken' })
      .expect(200);
    expect(broken.body.items.map((l: Json) => l.targetReference.page ?? l.targetReference.file)).toEqual([
      'no-such-page',
      'no-such-file',
    ]);
    expect(broken.body.count).toBe(2);
    expect(broken.body.stats).toEqual({ total: 7, broken: { total: 2, changeRequest: 0 } });
    const inApp = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/links`)
      .query({ status: 'in-app' })
      .expect(200);
    expect(inApp.body.items.map((l: Json) => l.status)).toEqual(['in-app']);

    const bad = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/links`)
      .query({ status: 'dead' })
      .expect(400);
    expect(bad.body).toEqual({ error: { code: 400, message: 'status: must be one of ok, broken, in-app' } });
  });

  it('marks links broken once their target page is deleted, and ok again when it is back', async () => {
    const fx = await createOrg(server.ds);
    const { space, head, target } = await linkedSpace(fx);
    await writeHead(server, head, fx.admin.user.id, (e) => e.deletePage(target));
    const res = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/links`)
      .query({ status: 'broken' })
      .expect(200);
    const revision = await revisionOf(fx, space.id);
    expect(res.body.stats).toEqual({ total: 7, broken: { total: 4, changeRequest: 0 } });
    // the id link still names the page; the path link leads nowhere, so it is shown as the path written
    expect(res.body.items.map((l: Json) => l.targetReference)).toEqual([
      at(pageRef(fx, space, target), revision),
      at(pageRef(fx, space, 'no-such-page'), revision),
      expect.objectContaining({ kind: 'file', file: 'no-such-file' }),
      { kind: 'url', url: '/target' },
    ]);
    const { result: again } = await writeHead(server, head, fx.admin.user.id, (e) => e.createPage({ title: 'Target' }));
    const ok = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/links`).query({ status: 'ok' }).expect(200);
    expect(ok.body.items.map((l: Json) => l.targetReference)).toContainEqual(
      at(pageRef(fx, space, again), await revisionOf(fx, space.id)),
    );
    expect(ok.body.stats.broken.total).toBe(3);
  });

  it('pages through links with keyset cursors bound to the list and its filter', async () => {
    const fx = await createOrg(server.ds);
    const { space } = await linkedSpace(fx);
    const path = `/v1/spaces/${space.id}/links`;
    const all = (await server.as(fx.admin.token).get(path).expect(200)).body.items;
    const paged = await listAll(server, fx.admin, path, { limit: 3 });
    expect(paged.pages).toBe(3);
    expect(paged.items).toEqual(all);
    expect(paged.bodies.every((b) => b.count === 7)).toBe(true);
    const cursor = paged.bodies[0].next.page;
    expect(
      (
        await server
          .as(fx.admin.token)
          .get(path)
          .query({ page: `${cursor}x` })
          .expect(400)
      ).body.error.message,
    ).toBe('page: invalid or expired cursor');
    await server.as(fx.admin.token).get(path).query({ page: cursor, status: 'ok' }).expect(400);
    expect((await server.as(fx.admin.token).get(path).query({ limit: 1001 }).expect(400)).body.error.message).toBe(
      'limit: must be at most 1000',
    );
  });

  it('answers 401 without a token, 404 to other organizations and to guests without access', async () => {
    const fx = await createOrg(server.ds);
    const { space } = await linkedSpace(fx);
    await server.as('garbage').get(`/v1/spaces/${space.id}/links`).expect(401);
    const stranger = (await createOrg(server.ds)).admin;
    expect((await server.as(stranger.token).get(`/v1/spaces/${space.id}/links`).expect(404)).body.error.message).toBe(
      'space not found',
    );
    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).get(`/v1/spaces/${space.id}/links`).expect(404);
    const reader = await addMember(server.ds, fx.org, 'read');
    await server.as(reader.token).get(`/v1/spaces/${space.id}/links`).expect(200);
    await server.as(fx.admin.token).get('/v1/spaces/no-such-space/links').expect(404);
  });
});

describe('page links', () => {
  it("lists a page's links in the space and in a change request, where statuses follow that revision", async () => {
    const fx = await createOrg(server.ds);
    const { space, target, source } = await linkedSpace(fx);
    const cr: ChangeRequest = await inTransaction(server.ds, (db) =>
      createChangeRequest(db, space.id, {}, fx.admin.user.id),
    );
    await writeHead(server, { kind: 'change-request', changeRequestId: cr.id }, fx.admin.user.id, (e) =>
      e.deletePage(target),
    );

    const spaceForm = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/content/page/${source}/links`)
      .expect(200);
    const indexed = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/links`).expect(200);
    expect(spaceForm.body).toEqual(indexed.body);

    const crPath = `/v1/spaces/${space.id}/change-requests/${cr.number}/content/page/${source}/links`;
    const crForm = await server.as(fx.admin.token).get(crPath).expect(200);
    const crRevision = await headOf(cr);
    expect(crForm.body.stats).toEqual({ total: 7, broken: { total: 4, changeRequest: 2 } });
    expect(crForm.body.items[0]).toEqual({
      status: 'broken',
      relation: 'reference',
      targetReference: at(pageRef(fx, space, target), crRevision),
      locationReferences: location(fx, space, source, crRevision),
    });
    expect(crForm.body.items[6]).toMatchObject({ status: 'broken', targetReference: { kind: 'url', url: '/target' } });

    const filtered = await server.as(fx.admin.token).get(crPath).query({ status: 'ok' }).expect(200);
    expect(filtered.body.count).toBe(2);
    expect(filtered.body.stats.total).toBe(7);
    const paged = await listAll(server, fx.admin, crPath, { limit: 2 });
    expect(paged.pages).toBe(4);
    expect(paged.items).toEqual(crForm.body.items);
    const cursor = paged.bodies[0].next.page;
    await server
      .as(fx.admin.token)
      .get(crPath)
      .query({ page: cursor.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')) })
      .expect(400);
    // a cursor of the space form does not work in the change request form
    const spaceCursor = (
      await server
        .as(fx.admin.token)
        .get(`/v1/spaces/${space.id}/content/page/${source}/links`)
        .query({ limit: 2 })
        .expect(200)
    ).body.next.page;
    await server.as(fx.admin.token).get(crPath).query({ page: spaceCursor }).expect(400);
  });

  it('answers 404 for a page that is not in the revision, or a change request that does not exist', async () => {
    const fx = await createOrg(server.ds);
    const { space, head, target } = await linkedSpace(fx);
    await writeHead(server, head, fx.admin.user.id, (e) => e.deletePage(target));
    const res = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content/page/${target}/links`).expect(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'page not found' } });
    await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/change-requests/99/content/page/${target}/links`)
      .expect(404);
    const stranger = (await createOrg(server.ds)).admin;
    await server.as(stranger.token).get(`/v1/spaces/${space.id}/content/page/${target}/links`).expect(404);
  });
});

describe('backlinks', () => {
  /** Target is linked by A (by id, twice), B (by id), P (by path only); the file by A. */
  async function backlinkedSpace(fx: OrgFixture) {
    const space = await newSpace(server, fx.admin, fx.org.id);
    const head: Head = { kind: 'space', spaceId: space.id };
    const fileId = 'file0000000000000002';
    const { result: ids } = await writeHead(server, head, fx.admin.user.id, async (e) => {
      const target = await e.createPage({ title: 'Target' });
      e.putFile(fileId, FILE);
      const a = await e.createPage({
        title: 'A',
        markdown: `[one](page:${target}) and [two](page:${target}) ![img](file:${fileId})`,
      });
      const b = await e.createPage({ title: 'B', markdown: `[b](page:${target})` });
      const p = await e.createPage({ title: 'P', markdown: '[by path](target)' });
      const q = await e.createPage({ title: 'Q', markdown: '[not yet](/renamed)' });
      await e.createPage({ title: 'Unrelated', markdown: 'no links' });
      return { target, a, b, p, q };
    });
    return { space, head, fileId, ...ids };
  }

  it("lists the pages linking to a page or a file in the space's current revision, once each, by page id", async () => {
    const fx = await createOrg(server.ds);
    const { space, fileId, target, a, b, p } = await backlinkedSpace(fx);
    const revision = await revisionOf(fx, space.id);
    const path = `/v1/spaces/${space.id}/content/page/${target}/backlinks`;
    const res = await server.as(fx.admin.token).get(path).expect(200);
    const expected = [a, b, p]
      .sort()
      .map((id) => ({ ...pageRef(fx, space, id), versionContext: { type: 'revision', revision } }));
    expect(res.body).toEqual({ items: expected, count: 3 });

    const paged = await listAll(server, fx.admin, path, { limit: 1 });
    expect(paged.pages).toBe(3);
    expect(paged.items).toEqual(expected);
    await server.as(fx.admin.token).get(path).query({ page: 'forged.cursor' }).expect(400);

    const files = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/content/files/${fileId}/backlinks`)
      .expect(200);
    expect(files.body.items.map((r: Json) => r.page)).toEqual([a]);
    expect(
      (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content/files/nope/backlinks`).expect(404)).body
        .error.message,
    ).toBe('file not found');
    expect(
      (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content/page/nope/backlinks`).expect(404)).body.error
        .message,
    ).toBe('page not found');
    const stranger = (await createOrg(server.ds)).admin;
    await server.as(stranger.token).get(path).expect(404);
  });

  it('lists backlinks as they are in a change request, which differs from the space', async () => {
    const fx = await createOrg(server.ds);
    const { space, fileId, target, a, b, p, q } = await backlinkedSpace(fx);
    const cr: ChangeRequest = await inTransaction(server.ds, (db) =>
      createChangeRequest(db, space.id, {}, fx.admin.user.id),
    );
    const crHead: Head = { kind: 'change-request', changeRequestId: cr.id };
    const { result: n } = await writeHead(server, crHead, fx.admin.user.id, async (e) => {
      await e.updatePage(b, { markdown: 'no longer linked' });
      // renaming moves the path: P's "target" leads nowhere, Q's "/renamed" now leads to Target
      await e.updatePage(target, { title: 'Renamed' });
      await e.updatePage(a, { markdown: `![img](file:${fileId})` });
      return e.createPage({ title: 'New', markdown: `[new](page:${target})` });
    });
    const crBase = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    const res = await server.as(fx.admin.token).get(`${crBase}/page/${target}/backlinks`).expect(200);
    expect(res.body.items.map((r: Json) => r.page)).toEqual([n, q].sort());
    expect(res.body.count).toBe(2);
    expect(res.body.items[0].versionContext).toEqual({ type: 'revision', revision: await headOf(cr) });

    // paged in memory, with cursors bound to the change request
    const paged = await listAll(server, fx.admin, `${crBase}/page/${target}/backlinks`, { limit: 1 });
    expect(paged.items).toEqual(res.body.items);
    const spaceCursor = (
      await server
        .as(fx.admin.token)
        .get(`/v1/spaces/${space.id}/content/page/${target}/backlinks`)
        .query({ limit: 1 })
        .expect(200)
    ).body.next.page;
    await server.as(fx.admin.token).get(`${crBase}/page/${target}/backlinks`).query({ page: spaceCursor }).expect(400);

    // the space is unchanged
    const inSpace = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/content/page/${target}/backlinks`)
      .expect(200);
    expect(inSpace.body.items.map((r: Json) => r.page)).toEqual([a, b, p].sort());

    const files = await server.as(fx.admin.token).get(`${crBase}/files/${fileId}/backlinks`).expect(200);
    expect(files.body.items.map((r: Json) => r.page)).toEqual([a]);

    await writeHead(server, crHead, fx.admin.user.id, (e) => e.deleteFile(fileId));
    await server.as(fx.admin.token).get(`${crBase}/files/${fileId}/backlinks`).expect(404);
    await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content/files/${fileId}/backlinks`).expect(200);

    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).get(`${crBase}/page/${target}/backlinks`).expect(404);
    await grant(server.ds, fx.org.id, 'space', space.id, guest.user.id, 'read');
    await server.as(guest.token).get(`${crBase}/page/${target}/backlinks`).expect(200);
  });
});

describe('space and in-app links', () => {
  it('a space link is ok only for a live space of the same organization, and follows deletes, restores and transfers', async () => {
    const fx = await createOrg(server.ds);
    const other = await createOrg(server.ds);
    const sibling = await newSpace(server, fx.admin, fx.org.id);
    const foreign = await newSpace(server, other.admin, other.org.id);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const lookalike = `${server.config.appBaseUrl}.evil.example/o/x`;
    await writeHead(server, { kind: 'space', spaceId: space.id }, fx.admin.user.id, (e) =>
      e.createPage({ title: 'Links', markdown: `[s](space:${sibling.id}) [f](space:${foreign.id}) [l](${lookalike})` }),
    );
    const statuses = async () =>
      (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/links`).expect(200)).body.items.map(
        (l: Json) => l.status,
      );
    // another organization's space reads as missing: its existence is never revealed
    expect(await statuses()).toEqual(['ok', 'broken', 'ok']);
    expect(
      (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/links`).expect(200)).body.items[2].targetReference,
    ).toEqual({ kind: 'url', url: lookalike });

    await server.as(fx.admin.token).delete(`/v1/spaces/${sibling.id}`).expect(204);
    expect(await statuses()).toEqual(['broken', 'broken', 'ok']);
    await server.as(fx.admin.token).post(`/v1/spaces/${sibling.id}/restore`).expect(200);
    expect(await statuses()).toEqual(['ok', 'broken', 'ok']);

    // the linking space moves to the other organization: now the foreign space is its neighbour
    await addOrUpdateMember(server.ds.manager, other.org.id, fx.admin.user.id, 'admin');
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/transfer`)
      .send({ organization: other.org.id })
      .expect(200);
    expect(await statuses()).toEqual(['broken', 'ok', 'ok']);
  });
});
