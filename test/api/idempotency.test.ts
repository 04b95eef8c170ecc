import { randomBytes } from 'crypto';
import { expireIdempotencyKeys, requestHash, reserveKey } from '../../domain/idempotency/keys';
import { createOrganization } from '../../domain/organizations/organizations';
import { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg, OrgFixture } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

const newKey = () => `key-${randomBytes(8).toString('hex')}`;

describe('Idempotency-Key', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  const spacesOf = (orgId: string) => server.ds.getRepository(Space).countBy({ organizationId: orgId });
  const createSpace = (token: string, orgId: string, key: string, body: object = { title: 'Handbook' }) =>
    server.as(token).post(`/v1/orgs/${orgId}/spaces`).set('Idempotency-Key', key).send(body);

  it('replays the first answer byte for byte to a repeat, and creates one space', async () => {
    const key = newKey();
    const first = await createSpace(fx.admin.token, fx.org.id, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await createSpace(fx.admin.token, fx.org.id, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await spacesOf(fx.org.id)).toBe(1);
  });

  it('takes the same body in another key order as the same request', async () => {
    const key = newKey();
    await createSpace(fx.admin.token, fx.org.id, key, { title: 'Guide', emoji: '1f600' }).expect(201);
    const again = await createSpace(fx.admin.token, fx.org.id, key, { emoji: '1f600', title: 'Guide' }).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('creates exactly one space for 20 concurrent requests with one key; the others get the replay or 409', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => createSpace(fx.admin.token, fx.org.id, key)));
    const created = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(created).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 201) expect(a.body.id).toBe(created[0].body.id);
      else {
        expect(a.status).toBe(409);
        expect(a.headers['retry-after']).toBe('1');
        expect(a.body.error.message).toMatch(/^Idempotency-Key: .*in progress/);
      }
    }
    expect(await spacesOf(fx.org.id)).toBe(1);
  });

  it('answers 422 naming the key to a repeat with another body or on another operation', async () => {
    const key = newKey();
    const first = await createSpace(fx.admin.token, fx.org.id, key).expect(201);
    const otherBody = await createSpace(fx.admin.token, fx.org.id, key, { title: 'Other' }).expect(422);
    expect(otherBody.body.error).toEqual({ code: 422, message: expect.stringMatching(/^Idempotency-Key: /) });
    await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${first.body.id}`)
      .set('Idempotency-Key', key)
      .send({ title: 'Renamed' })
      .expect(422);
    expect(await spacesOf(fx.org.id)).toBe(1);
  });

  it('replays a 4xx answer too', async () => {
    const key = newKey();
    const first = await createSpace(fx.admin.token, fx.org.id, key, { colour: 'red' }).expect(400);
    const again = await createSpace(fx.admin.token, fx.org.id, key, { colour: 'red' }).expect(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    const reader = await addMember(server.ds, fx.org, 'read');
    const refused = await createSpace(reader.token, fx.org.id, key).expect(403);
    const refusedAgain = await createSpace(reader.token, fx.org.id, key).expect(403);
    expect(refusedAgain.text).toBe(refused.text);
    expect(refusedAgain.headers['idempotent-replayed']).toBe('true');
  });

  it('is a different key for another caller and in another organization', async () => {
    const key = newKey();
    const editor = await addMember(server.ds, fx.org, 'admin');
    const mine = await createSpace(fx.admin.token, fx.org.id, key).expect(201);
    const theirs = await createSpace(editor.token, fx.org.id, key).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    const other = await inTransaction(server.ds, (db) => createOrganization(db, { title: 'Other' }, fx.admin.user.id));
    const elsewhere = await createSpace(fx.admin.token, other.id, key).expect(201);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
    expect(await spacesOf(fx.org.id)).toBe(2);
    expect(await spacesOf(other.id)).toBe(1);
  });

  it('refuses a malformed key with 400 naming the header, and writes nothing', async () => {
    for (const key of ['', 'k'.repeat(256), 'clé', 'tab\there']) {
      const res = await createSpace(fx.admin.token, fx.org.id, key).expect(400);
      expect(res.body.error.message).toBe('Idempotency-Key: must be 1..255 printable ASCII characters');
    }
    await createSpace(fx.admin.token, fx.org.id, 'k'.repeat(255)).expect(201);
    expect(await spacesOf(fx.org.id)).toBe(1);
  });

  it('is ignored on GET and DELETE', async () => {
    const space = (await createSpace(fx.admin.token, fx.org.id, newKey()).expect(201)).body;
    const key = newKey();
    const read = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).set('Idempotency-Key', key).expect(200);
    expect(read.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const gone = await server
        .as(fx.admin.token)
        .delete(`/v1/spaces/${space.id}`)
        .set('Idempotency-Key', key)
        .expect(204);
      expect(gone.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('never keeps a secret: a repeat of a token issue gets 409 saying it was shown once', async () => {
    const key = newKey();
    const issue = () =>
      server.as(fx.admin.token).post('/v1/user/tokens').set('Idempotency-Key', key).send({ label: 'ci' });
    const first = await issue().expect(201);
    const again = await issue().expect(409);
    expect(again.body.error.message).toMatch(/^Idempotency-Key: .*secret that is shown once/);
    const kept = await server.ds.query('SELECT body FROM idempotency_keys WHERE state = ? AND body IS NOT NULL', [
      'secret',
    ]);
    expect(kept).toEqual([]);
    expect(JSON.stringify(first.body)).not.toBe('{}');
  });

  it('answers 409 with Retry-After while the first request runs, and takes over one whose process died', async () => {
    const key = newKey();
    const body = { title: 'Handbook' };
    const target = `/v1/orgs/${fx.org.id}/spaces`;
    const owner = { caller: `user:${fx.admin.user.id}`, organizationId: fx.org.id };
    const reserved = await reserveKey(server.ds.manager, owner, {
      key,
      operationId: 'createSpace',
      requestHash: requestHash('POST', target, body),
      ttlSeconds: 3600,
      holdSeconds: 1,
    });
    expect(reserved.kind).toBe('reserved');
    const busy = await createSpace(fx.admin.token, fx.org.id, key, body).expect(409);
    expect(busy.headers['retry-after']).toBe('1');
    expect(await spacesOf(fx.org.id)).toBe(0);
    // past its hold, the reservation's request is gone (its deadline answered long ago): a repeat runs afresh
    await new Promise((r) => setTimeout(r, 1100));
    const created = await createSpace(fx.admin.token, fx.org.id, key, body).expect(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
    expect(await spacesOf(fx.org.id)).toBe(1);
  });

  it('is forgotten once its lifetime ends: the cleanup removes it, and the key is new again', async () => {
    const key = newKey();
    await createSpace(fx.admin.token, fx.org.id, key).expect(201);
    const later = new Date(Date.now() + (server.config.idempotencyKeyTtlSeconds + 60) * 1000);
    expect(await expireIdempotencyKeys(server.ds.manager, later)).toBeGreaterThanOrEqual(1);
    const fresh = await createSpace(fx.admin.token, fx.org.id, key).expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await spacesOf(fx.org.id)).toBe(2);
  });

  it('is in the OpenAPI document on every POST, PUT and PATCH that takes a token, with its 409 and 422', async () => {
    const doc = (await server.as(fx.admin.token).get('/v1/openapi.json').expect(200)).body;
    let keyed = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of ['post', 'put', 'patch']) {
        const op = item[method];
        if (!op || (Array.isArray(op.security) && op.security.length === 0)) continue;
        const names = (op.parameters ?? []).filter((p: any) => p.in === 'header').map((p: any) => p.name);
        expect([`${method} ${path}`, names]).toEqual([
          `${method} ${path}`,
          expect.arrayContaining(['Idempotency-Key']),
        ]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
        keyed++;
      }
    }
    expect(keyed).toBeGreaterThan(50);
    const getSpace = doc.paths['/v1/spaces/{spaceId}'];
    expect(getSpace.get.parameters.map((p: any) => p.name)).toContain('If-None-Match');
    expect(getSpace.patch.parameters.map((p: any) => p.name)).toContain('If-Match');
    expect(Object.keys(getSpace.get.responses)).toContain('304');
  });
});
