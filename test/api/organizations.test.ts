import request from 'supertest';
import { issueToken } from '../../domain/auth/tokens';
import { ensureUser } from '../../domain/users/users';
import { User } from '../../entities/User';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg, createUser, OrgFixture, unique } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

describe('organizations', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  it('gets the organization with the spec fields and the caller permissions', async () => {
    const res = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(200);
    expect(res.body).toMatchObject({
      object: 'organization',
      id: fx.org.id,
      title: fx.org.title,
      type: 'business',
      emailDomains: [],
      inviteLinks: true,
      plan: 'free_2024',
      urls: { location: expect.stringContaining(`/v1/orgs/${fx.org.id}`) },
      permissions: { view: true, admin: true, listMembers: true },
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('creates an organization (extension) and lists the caller organizations across pages', async () => {
    const me = await createUser(server.ds);
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await server
        .as(me.token)
        .post('/v1/orgs')
        .send({ title: `Mine ${i}` })
        .expect(201);
      expect(res.headers.location).toContain(`/v1/orgs/${res.body.id}`);
      expect(res.body.permissions.admin).toBe(true);
      // booleans, not the 0/1 MariaDB hands back for defaulted columns on insert
      expect(res.body).toMatchObject({ sso: false, ai: false, inviteLinks: true });
      created.push(res.body.id);
    }
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server
        .as(me.token)
        .get('/v1/orgs')
        .query({ limit: 2, ...(page ? { page } : {}) })
        .expect(200);
      expect(res.body.count).toBe(3);
      seen.push(...res.body.items.map((o: { id: string }) => o.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([...created].reverse());
  });

  it('refuses a forged cursor', async () => {
    const res = await server.as(fx.admin.token).get('/v1/orgs').query({ page: 'eyJ4IjoxfQ.abc' }).expect(400);
    expect(res.body.error).toEqual({ code: 400, message: 'page: invalid or expired cursor' });
  });

  it('patches as admin and validates every field', async () => {
    const res = await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ title: 'Renamed', emailDomains: ['Example.TEST'], sso: true })
      .expect(200);
    // the admin's own domain (factories give every user an address @example.test)
    expect(res.body).toMatchObject({ title: 'Renamed', emailDomains: ['example.test'], sso: true });
    const cases: Array<[object, string]> = [
      [{ title: 'x' }, 'title: must be at least 2 characters'],
      [{ title: 'x'.repeat(256) }, 'title: must be at most 255 characters'],
      [{ title: 5 }, 'title: must be a string, not number'],
      [{ defaultRole: 'owner' }, 'defaultRole: must be one of read, comment, edit, review, create, admin'],
      [
        { id: 'x' },
        'id: unknown field; accepted: title, emailDomains, hostname, defaultRole, defaultContent, logo, sso, ai, inviteLinks, mergeRules',
      ],
      [{ hostname: 'ab' }, 'hostname: must be at least 3 characters'],
      [{ logo: 'not a url' }, 'logo: must be a valid url'],
      [{ logo: 'javascript:alert(1)' }, 'logo: must be an https URL'],
      [{ logo: 'data:image/svg+xml,<svg onload=alert(1)>' }, 'logo: must be an https URL'],
      [{ logo: 'http://cdn.example.test/logo.png' }, 'logo: must be an https URL'],
    ];
    for (const [body, message] of cases) {
      const bad = await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send(body).expect(400);
      expect(bad.body.error.message).toBe(message);
    }
    const malformed = await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .set('Content-Type', 'application/json')
      .send('{"title":')
      .expect(400);
    expect(malformed.body.error.message).toBe('request body: malformed JSON at line 1, column 10 (value expected)');
    const nullBody = await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .set('Content-Type', 'application/json')
      .send('null')
      .expect(400);
    expect(nullBody.body.error.message).toBe('request body: must be an object, not null');
    const after = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(200);
    expect(after.body.title).toBe('Renamed');
  });

  it('leaves an unset defaultRole out of the answer (a null would read as "guest" to GitBook\'s client)', async () => {
    const patched = await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ defaultRole: null })
      .expect(200);
    expect(patched.body).not.toHaveProperty('defaultRole');
    const read = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(200);
    expect(read.body).not.toHaveProperty('defaultRole');
  });

  it('shows an https logo in urls.logo', async () => {
    const logo = 'https://cdn.example.test/logo.png';
    const res = await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ logo }).expect(200);
    expect(res.body.urls.logo).toBe(logo);
  });

  it("claims only the admin's own e-mail domain, and never a public mail provider's", async () => {
    const patch = (body: object) => server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send(body);
    // a domain of somebody else's: its users would be shown this organization as theirs to join
    const foreign = await patch({ emailDomains: ['example.com'] }).expect(400);
    expect(foreign.body.error.message).toBe(
      'emailDomains: "example.com" must be the domain of your own e-mail address (example.test); an admin of that domain can add it',
    );
    const created = await server
      .as(fx.admin.token)
      .post('/v1/orgs')
      .send({ title: 'Phish', emailDomains: ['example.com'] });
    expect([created.status, created.body.error?.message]).toEqual([400, foreign.body.error.message]);

    // an admin at a public provider cannot claim it either
    const gmailUser = await inTransaction(server.ds, async (db) => {
      const user = await ensureUser(db, `${unique('g')}@gmail.com`);
      return (await issueToken(db, user.id, 'test')).secret;
    });
    const gmail = await server
      .as(gmailUser)
      .post('/v1/orgs')
      .send({ title: 'Mine', emailDomains: ['gmail.com'] });
    expect([gmail.status, gmail.body.error?.message]).toEqual([
      400,
      'emailDomains: "gmail.com" is a public mail provider; claim your organization\'s own domain',
    ]);

    // what is claimed stays claimable, and may be dropped, by any admin
    await patch({ emailDomains: ['example.test'] }).expect(200);
    const other = await addMember(server.ds, fx.org, 'admin');
    await server.ds.manager.update(User, { id: other.user.id }, { email: `${unique('o')}@other.example` });
    await server
      .as(other.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ emailDomains: ['example.test'] })
      .expect(200);
    const dropped = await server.as(other.token).patch(`/v1/orgs/${fx.org.id}`).send({ emailDomains: [] }).expect(200);
    expect(dropped.body.emailDomains).toEqual([]);
    const readded = await server
      .as(other.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ emailDomains: ['example.test'] });
    expect(readded.status).toBe(400);
  });

  it('answers 400, not 500, for a path segment it cannot percent-decode and a body that does not inflate', async () => {
    for (const path of [`/v1/orgs/%FF`, `/v1/orgs/${fx.org.id}/members/%E0%A4%A`, '/v1/blobs/files/%FF']) {
      const res = await server.as(fx.admin.token).get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { error: { code: 400, message: 'path: malformed percent-encoding' } },
      });
    }
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await server
        .as(fx.admin.token)
        .patch(`/v1/orgs/${fx.org.id}`)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send('{"title":"Inflated"}');
      expect({ encoding, status: res.status, body: res.body }).toEqual({
        encoding,
        status: 400,
        body: {
          error: { code: 400, message: 'request body: cannot be decoded (check Content-Encoding and Content-Length)' },
        },
      });
    }
    expect((await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(200)).body.title).toBe(fx.org.title);
  });

  it('answers 409 for a hostname another organization holds', async () => {
    const other = await createOrg(server.ds);
    const hostname = `h${Date.now().toString(36)}`;
    await server.as(other.admin.token).patch(`/v1/orgs/${other.org.id}`).send({ hostname }).expect(200);
    await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ hostname }).expect(409);
  });

  it('401 without, with garbage and with a revoked token', async () => {
    await request(server.app).get(`/v1/orgs/${fx.org.id}`).expect(401);
    await server.as('garbage').get(`/v1/orgs/${fx.org.id}`).expect(401);
    const issued = await server.as(fx.admin.token).post('/v1/user/tokens').send({ label: 'temp' }).expect(201);
    await server.as(issued.body.token).get('/v1/user').expect(200);
    await server.as(fx.admin.token).delete(`/v1/user/tokens/${issued.body.id}`).expect(204);
    const res = await server.as(issued.body.token).get('/v1/user').expect(401);
    expect(res.body.error.code).toBe(401);
  });

  it('hides the organization from non-members (404) and refuses writes by a read member (403)', async () => {
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(404);
    await server.as(outsider.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ title: 'Nope' }).expect(404);
    const reader = await addMember(server.ds, fx.org, 'read');
    const res = await server.as(reader.token).get(`/v1/orgs/${fx.org.id}`).expect(200);
    expect(res.body.permissions.admin).toBe(false);
    await server.as(reader.token).patch(`/v1/orgs/${fx.org.id}`).send({ title: 'Nope' }).expect(403);
  });

  it('returns the caller as a user', async () => {
    const res = await server.as(fx.admin.token).get('/v1/user').expect(200);
    expect(res.body).toMatchObject({ object: 'user', id: fx.admin.user.id, email: fx.admin.user.email });
  });
});

describe('users', () => {
  it('shows a user to members of a shared organization only, at their urls.location', async () => {
    const fx = await createOrg(server.ds);
    const colleague = await addMember(server.ds, fx.org, 'read');
    const me = await server.as(colleague.token).get('/v1/user').expect(200);
    const path = new URL(me.body.urls.location).pathname;
    const res = await server.as(fx.admin.token).get(path).expect(200);
    expect(res.body).toMatchObject({ object: 'user', id: colleague.user.id, displayName: colleague.user.displayName });
    const stranger = await createOrg(server.ds);
    await server.as(stranger.admin.token).get(path).expect(404);
  });
});
