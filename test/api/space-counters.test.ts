/**
 * A space's stored counters (change requests by status, open comments on the space) follow every
 * write that changes them, including concurrent ones, and agree with the rows they count.
 */
import { FILL_SPACE_COUNTERS } from '../../entities/migrations/1795580000000-StoreSpaceCounters';
import { commentFixture } from '../support/comments';
import { useServer } from '../support/server';

const server = useServer();

type Json = Record<string, unknown>;

async function countedFromRows(spaceId: string): Promise<Json> {
  const [row] = await server.ds.query(
    `SELECT (SELECT COUNT(*) FROM change_requests WHERE spaceId = ?) AS changeRequests,
            (SELECT COUNT(*) FROM change_requests WHERE spaceId = ? AND status = 'open') AS changeRequestsOpen,
            (SELECT COUNT(*) FROM change_requests WHERE spaceId = ? AND status = 'draft') AS changeRequestsDraft,
            (SELECT COUNT(*) FROM comments WHERE spaceId = ? AND changeRequestId IS NULL AND status = 'open') AS comments`,
    [spaceId, spaceId, spaceId, spaceId],
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

describe('space counters', () => {
  it('follow change requests created, moved between statuses and merged, and comments created, resolved, reopened and deleted', async () => {
    const f = await commentFixture(server);
    const admin = server.as(f.fx.admin.token);
    const spacePath = `/v1/spaces/${f.space.id}`;
    const counters = async () => {
      const space = (await admin.get(spacePath).expect(200)).body;
      const listed = (await admin.get(`/v1/orgs/${f.fx.org.id}/spaces`).expect(200)).body.items.find(
        (s: Json) => s.id === f.space.id,
      );
      const shown = {
        changeRequests: space.changeRequests,
        changeRequestsOpen: space.changeRequestsOpen,
        changeRequestsDraft: space.changeRequestsDraft,
        comments: space.comments,
      };
      expect({
        changeRequests: listed.changeRequests,
        changeRequestsOpen: listed.changeRequestsOpen,
        changeRequestsDraft: listed.changeRequestsDraft,
        comments: listed.comments,
      }).toEqual(shown);
      expect(await countedFromRows(f.space.id)).toEqual(shown);
      return shown;
    };
    // the fixture's change request
    expect(await counters()).toEqual({ changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 0 });
    const second = (await admin.post(`${spacePath}/change-requests`).send({ subject: 'Second' }).expect(201)).body;
    await admin.patch(`${spacePath}/change-requests/${second.id}`).send({ status: 'draft' }).expect(200);
    expect(await counters()).toEqual({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1, comments: 0 });
    await admin.patch(`${spacePath}/change-requests/${second.id}`).send({ status: 'archived' }).expect(200);
    await admin.patch(`${spacePath}/change-requests/${second.id}`).send({ status: 'archived' }).expect(200);
    expect(await counters()).toEqual({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 0 });
    await admin.post(`${spacePath}/change-requests/${f.changeRequest.id}/merge`).expect(200);
    expect(await counters()).toEqual({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 0 });

    // comments on a change request count there, not on the space
    await admin
      .post(f.crComments)
      .send({ body: { markdown: 'On the change request' } })
      .expect(200);
    const first = (
      await admin
        .post(f.spaceComments)
        .send({ body: { markdown: 'One' } })
        .expect(200)
    ).body;
    const other = (
      await admin
        .post(f.spaceComments)
        .send({ body: { markdown: 'Two' } })
        .expect(200)
    ).body;
    expect((await counters()).comments).toBe(2);
    await admin.put(`${f.spaceComments}/${first.id}`).send({ resolved: true }).expect(200);
    await admin
      .put(`${f.spaceComments}/${first.id}`)
      .send({ resolved: true, body: { markdown: 'One, edited' } })
      .expect(200);
    expect((await counters()).comments).toBe(1);
    await admin.put(`${f.spaceComments}/${first.id}`).send({ resolved: false }).expect(200);
    expect((await counters()).comments).toBe(2);
    await admin.put(`${f.spaceComments}/${first.id}`).send({ resolved: true }).expect(200);
    await admin.delete(`${f.spaceComments}/${first.id}`).expect(204);
    expect((await counters()).comments).toBe(1);
    await admin.delete(`${f.spaceComments}/${other.id}`).expect(204);
    expect((await counters()).comments).toBe(0);
  });

  it('add up under concurrent writes: parallel comments, resolutions of one comment, deletions and change requests', async () => {
    const f = await commentFixture(server);
    const admin = server.as(f.fx.admin.token);
    const spacePath = `/v1/spaces/${f.space.id}`;
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        admin
          .post(f.spaceComments)
          .send({ body: { markdown: `Comment ${i}` } })
          .expect(200),
      ),
    );
    const ids = created.map((r) => r.body.id as string);
    await Promise.all([
      // the same comment resolved by several requests at once counts once
      ...Array.from({ length: 4 }, () =>
        admin.put(`${f.spaceComments}/${ids[0]}`).send({ resolved: true }).expect(200),
      ),
      ...ids.slice(1, 5).map((id) => admin.put(`${f.spaceComments}/${id}`).send({ resolved: true }).expect(200)),
      ...ids.slice(5, 8).map((id) => admin.delete(`${f.spaceComments}/${id}`).expect(204)),
      // deleting one comment twice at once removes it once
      admin.delete(`${f.spaceComments}/${ids[8]}`).expect(204),
      admin.delete(`${f.spaceComments}/${ids[8]}`),
      ...Array.from({ length: 5 }, (_, i) =>
        admin
          .post(`${spacePath}/change-requests`)
          .send({ subject: `Parallel ${i}` })
          .expect(201),
      ),
    ]);
    const space = (await admin.get(spacePath).expect(200)).body;
    expect({
      changeRequests: space.changeRequests,
      changeRequestsOpen: space.changeRequestsOpen,
      changeRequestsDraft: space.changeRequestsDraft,
      comments: space.comments,
    }).toEqual(await countedFromRows(f.space.id));
    expect(space.comments).toBe(3);
    expect(space.changeRequests).toBe(6);
  });
});

describe('the migration that stores the counters', () => {
  it('fills them from the rows they count', async () => {
    const f = await commentFixture(server);
    const admin = server.as(f.fx.admin.token);
    const spacePath = `/v1/spaces/${f.space.id}`;
    const draft = (await admin.post(`${spacePath}/change-requests`).send({ subject: 'Draft' }).expect(201)).body;
    await admin.patch(`${spacePath}/change-requests/${draft.id}`).send({ status: 'draft' }).expect(200);
    await admin
      .post(f.spaceComments)
      .send({ body: { markdown: 'Open' } })
      .expect(200);
    const kept = await countedFromRows(f.space.id);
    expect(kept).toEqual({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1, comments: 1 });
    // as before the migration: columns at their default
    await server.ds.query(
      'UPDATE spaces SET changeRequestsCount = 0, changeRequestsOpenCount = 0, changeRequestsDraftCount = 0, openCommentsCount = 0 WHERE id = ?',
      [f.space.id],
    );
    // the migration's statement, for this space only: the other test files' spaces stay out of it
    await server.ds.query(`${FILL_SPACE_COUNTERS} WHERE s.id = ?`, [f.space.id]);
    const space = (await admin.get(spacePath).expect(200)).body;
    expect({
      changeRequests: space.changeRequests,
      changeRequestsOpen: space.changeRequestsOpen,
      changeRequestsDraft: space.changeRequestsDraft,
      comments: space.comments,
    }).toEqual(kept);
  });
});
