import { addMember, createOrg, OrgFixture } from '../factories';
import { newChangeRequest, newSpace } from '../support/api';
import { useServer } from '../support/server';

const server = useServer();

describe('conditional requests on a space', () => {
  let fx: OrgFixture;
  let spaceId: string;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    spaceId = (await newSpace(server, fx.admin, fx.org.id, { title: 'Handbook' })).id;
  });

  const read = (token = fx.admin.token) => server.as(token).get(`/v1/spaces/${spaceId}`);
  const rename = (title: string, ifMatch?: string) => {
    const req = server.as(fx.admin.token).patch(`/v1/spaces/${spaceId}`);
    return (ifMatch ? req.set('If-Match', ifMatch) : req).send({ title });
  };

  it('carries a strong ETag; If-None-Match with it answers 304 with no body until the space changes', async () => {
    const first = await read().expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await read().expect(200)).headers.etag).toBe(etag);
    const unchanged = await read().set('If-None-Match', etag).expect(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    await read().set('If-None-Match', `"other", W/${etag}`).expect(304);
    await rename('Guide').expect(200);
    const changed = await read().set('If-None-Match', etag).expect(200);
    expect(changed.body.title).toBe('Guide');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('moves its ETag when a counter in the answer moves', async () => {
    const etag = (await read().expect(200)).headers.etag;
    await newChangeRequest(server, fx.admin, spaceId);
    const after = await read().set('If-None-Match', etag).expect(200);
    expect(after.body.changeRequests).toBe(1);
  });

  it('gives callers with other permissions other ETags', async () => {
    const reader = await addMember(server.ds, fx.org, 'read');
    const mine = (await read().expect(200)).headers.etag;
    const theirs = (await read(reader.token).expect(200)).headers.etag;
    expect(theirs).not.toBe(mine);
    await read(reader.token).set('If-None-Match', mine).expect(200);
  });

  it('answers 412 to a PATCH whose If-Match is not current, and writes nothing', async () => {
    const etag = (await read().expect(200)).headers.etag;
    await rename('First', etag).expect(200);
    const refused = await rename('Second', etag).expect(412);
    expect(refused.body.error).toEqual({ code: 412, message: expect.stringMatching(/^If-Match: /) });
    expect((await read().expect(200)).body.title).toBe('First');
    await rename('Weak', `W/${(await read()).headers.etag}`).expect(412);
    await rename('Any', '*').expect(200);
    await rename('Current', (await read()).headers.etag).expect(200);
    await rename('Without').expect(200);
  });

  it('lets one of two concurrent editors holding one ETag win; the other gets 412', async () => {
    const etag = (await read().expect(200)).headers.etag;
    const answers = await Promise.all([rename('Alice', etag), rename('Bob', etag)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await read().expect(200)).body.title).toBe(winner.body.title);
  });

  it('answers 412 to a DELETE whose If-Match is not current or whose space is gone; without it, 204 stays', async () => {
    const del = (ifMatch?: string) => {
      const req = server.as(fx.admin.token).delete(`/v1/spaces/${spaceId}`);
      return ifMatch ? req.set('If-Match', ifMatch) : req;
    };
    const stale = (await read().expect(200)).headers.etag;
    await rename('Moved on').expect(200);
    await del(stale).expect(412);
    await read().expect(200);
    await del((await read()).headers.etag).expect(204);
    await del('*').expect(412);
    await del().expect(204);
  });
});
