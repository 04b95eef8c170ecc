import request from 'supertest';
import { SamlProvider } from '../../entities/SamlProvider';
import { Actor, addMember, createOrg, OrgFixture } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

/** A self-signed certificate (CN=idp.example.test) made with openssl for these tests. */
const CERTIFICATE = `
-----BEGIN CERTIFICATE-----
MIIDGTCCAgGgAwIBAgIUHL2YXMFN7gx/yBB1Vohg7x3FQuUwDQYJKoZIhvcNAQEL
BQAwGzEZMBcGA1UEAwwQaWRwLmV4YW1wbGUudGVzdDAgFw0yNjExMjEwNzUxNDZa
GA8yMTI2MTAyODA3NTE0NlowGzEZMBcGA1UEAwwQaWRwLmV4YW1wbGUudGVzdDCC
ASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAM+hu+BRe+MiEM+U+aq+nYBf
GtAzI7XbU7WI3nHXjn5IMkkPG9BGcAub2ZGgtJlWgE0tG2LNVUCOPe3cJFi34mVb
nPv0bVebQEO7/odyI4bytctmEL8CnMCjfvfz0Z1+Vx+QMJSyOT+bY3ej/MPtcWFc
3BpUnRdz7wClWK82m2kny/CeLVXXJcAtcAtukyyXTekpd2+0gL9BdxYQZS26iOHT
9Owqo5wdzfHPkcqnditG/Q5BlZ0Og6a3kz1v8BUOtuFb/3jTY05lTDMrUhQ6TWQ3
K9Jdm9w2zzxoph9pNfQYfd0lCdaTN4Ahddi8kt4FSNxktJvVQ3JKpDeT8pVZNIkC
AwEAAaNTMFEwHQYDVR0OBBYEFKLTDWr5Deseioj/Kz53KF1Tb6X0MB8GA1UdIwQY
MBaAFKLTDWr5Deseioj/Kz53KF1Tb6X0MA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZI
hvcNAQELBQADggEBAKR6r2sAOjK3/31E10QXwWHnPvr4vg/ERf0N3oJTZ0riB08l
yRBcjq1eSfQ419B3SCTileNLHU/Bzt1eo3i311JJbmlwVDQjqCuLh6TUS0COi4hv
h3ucGBxLqk9zqsGufRnWbk5Lv3PSjtu9R1GOxKbruWThv1VUa++mfAxqKDFnWOi7
R4KiUGylY3lX4eDYHntTRCLPUVNxmFHZw0Pje3ew2t9z5rmm8qit22MSFU363nWD
7wry0XgQYFXfO3o2lblsKRHrO4W3ca/uub++QW8ChP9dKqlR+lTcxQppMdZj51Gr
jmbCXM7Ml5ZoyEad1MT2WxmatP+1HxMB3QaGTC4=
-----END CERTIFICATE-----
`.trim();
const BASE64_DER = CERTIFICATE.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

describe('SAML providers', () => {
  let fx: OrgFixture;
  let reader: Actor;
  let saml: string;
  const valid = {
    label: 'Okta',
    entityID: 'https://idp.example.test/entity',
    certificate: CERTIFICATE,
    ssoURL: 'https://idp.example.test/sso',
  };
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    reader = await addMember(server.ds, fx.org, 'read');
    saml = `/v1/orgs/${fx.org.id}/saml`;
  });

  it('creates a provider (201 + Location) with a default team and role, presented with its service URLs', async () => {
    const team = await server
      .as(fx.admin.token)
      .put(`/v1/orgs/${fx.org.id}/teams`)
      .send({ title: 'SSO people', members: [reader.user.id] })
      .expect(201);
    const res = await server
      .as(fx.admin.token)
      .post(saml)
      .send({ ...valid, defaultTeam: team.body.id, defaultRole: 'edit' })
      .expect(201);
    const id = res.body.id;
    const base = server.config.publicBaseUrl;
    expect(res.headers.location).toBe(`${base}/v1/orgs/${fx.org.id}/saml/${id}`);
    expect(res.body).toEqual({
      object: 'saml-provider',
      id,
      label: 'Okta',
      ssoURL: valid.ssoURL,
      entityID: valid.entityID,
      certificate: CERTIFICATE,
      defaultTeam: { ...team.body, members: 1 },
      defaultRole: 'edit',
      createdAt: expect.stringMatching(/Z$/),
      status: 'active',
      service: {
        acsURL: `${base}/v1/sso/saml/${id}/acs`,
        startURL: `${base}/v1/sso/saml/${id}/start`,
        entityID: `${base}/v1/sso/saml/${id}`,
      },
      urls: { location: `${base}/v1/orgs/${fx.org.id}/saml/${id}` },
    });
    const got = await server.as(fx.admin.token).get(`${saml}/${id}`).expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('accepts a bare base64 certificate and stores it as PEM; unset defaults are null', async () => {
    const res = await server
      .as(fx.admin.token)
      .post(saml)
      .send({ ...valid, certificate: BASE64_DER })
      .expect(201);
    expect(res.body.certificate).toBe(CERTIFICATE);
    expect(res.body).toMatchObject({ defaultRole: null });
    expect(res.body).not.toHaveProperty('defaultTeam');
  });

  it('validates the body', async () => {
    const otherOrg = await createOrg(server.ds);
    const foreignTeam = await server
      .as(otherOrg.admin.token)
      .put(`/v1/orgs/${otherOrg.org.id}/teams`)
      .send({ title: 'Theirs' })
      .expect(201);
    const notACertificate = 'must be a PEM or base64-encoded X.509 certificate';
    const cases: Array<[object, string]> = [
      [{ ...valid, label: undefined }, 'label: is required'],
      [{ ...valid, label: 'x'.repeat(256) }, 'label: must be at most 255 characters'],
      [{ ...valid, entityID: 5 }, 'entityID: must be a string, not number'],
      [{ ...valid, ssoURL: 'http://idp.example.test/sso' }, 'ssoURL: must be an https URL'],
      [{ ...valid, ssoURL: 'not a url' }, 'ssoURL: must be a valid url'],
      [{ ...valid, certificate: 'hello' }, `certificate: ${notACertificate}`],
      [{ ...valid, certificate: 'aGVsbG8gd29ybGQ=' }, `certificate: ${notACertificate}`],
      [{ ...valid, certificate: CERTIFICATE.replace('MIID', 'MIIE') }, `certificate: ${notACertificate}`],
      [{ ...valid, defaultRole: 'owner' }, 'defaultRole: must be one of read, comment, edit, review, create, admin'],
      [
        { ...valid, defaultTeam: foreignTeam.body.id },
        `defaultTeam: "${foreignTeam.body.id}" is not a team of this organization`,
      ],
      [
        { ...valid, status: 'active' },
        'status: unknown field; accepted: label, entityID, certificate, ssoURL, defaultTeam, defaultRole',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await server.as(fx.admin.token).post(saml).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    expect(await server.ds.manager.countBy(SamlProvider, { organizationId: fx.org.id })).toBe(0);
  });

  it('a certificate is cut at its PEM markers by position: 16 KB of spaces without END is refused at once', async () => {
    const notACertificate = 'certificate: must be a PEM or base64-encoded X.509 certificate';
    // the pattern it replaces backtracked for 7 minutes on this body, blocking the API
    const spaces = `-----BEGIN CERTIFICATE-----\n${' '.repeat(16_300)}x`;
    const started = Date.now();
    const res = await server
      .as(fx.admin.token)
      .post(saml)
      .send({ ...valid, certificate: spaces })
      .expect(400);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.body.error).toEqual({ code: 400, message: notACertificate });
    // the markers around nothing, or with no whitespace after BEGIN, are no PEM either
    for (const certificate of ['-----BEGIN CERTIFICATE----------END CERTIFICATE-----', CERTIFICATE.replace('\n', '')])
      await server
        .as(fx.admin.token)
        .post(saml)
        .send({ ...valid, certificate })
        .expect(400);
    expect(await server.ds.manager.countBy(SamlProvider, { organizationId: fx.org.id })).toBe(0);
  });

  it('is for admins only: 401, 403 for members, 404 for other organizations and unknown providers', async () => {
    const created = await server.as(fx.admin.token).post(saml).send(valid).expect(201);
    const one = `${saml}/${created.body.id}`;
    await request(server.app).get(saml).expect(401);
    await server.as(reader.token).get(saml).expect(403);
    await server.as(reader.token).post(saml).send(valid).expect(403);
    await server.as(reader.token).get(one).expect(403);
    await server.as(reader.token).patch(one).send({ label: 'x' }).expect(403);
    await server.as(reader.token).delete(one).expect(403);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).get(one).expect(404);
    await server.as(outsider.admin.token).delete(one).expect(204);
    await server.as(outsider.admin.token).get(`/v1/orgs/${outsider.org.id}/saml/${created.body.id}`).expect(404);
    const unknown = await server.as(fx.admin.token).get(`${saml}/nope`).expect(404);
    expect(unknown.body.error).toEqual({ code: 404, message: 'SAML provider not found' });
  });

  it('lists providers newest first, paginated', async () => {
    const ids: string[] = [];
    for (const label of ['A', 'B', 'C'])
      ids.push(
        (
          await server
            .as(fx.admin.token)
            .post(saml)
            .send({ ...valid, label })
            .expect(201)
        ).body.id,
      );
    for (const [i, id] of ids.entries())
      await server.ds.manager.update(SamlProvider, { id }, { createdAt: new Date(Date.UTC(2024, 0, i + 1)) });
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server
        .as(fx.admin.token)
        .get(saml)
        .query({ limit: 2, ...(page ? { page } : {}) })
        .expect(200);
      expect(res.body.count).toBe(3);
      seen.push(...res.body.items.map((p: { id: string }) => p.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([...ids].reverse());
  });

  it('patches any field, null clearing the defaults, and deletes (204 also when missing)', async () => {
    const team = await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title: 'T' }).expect(201);
    const created = await server.as(fx.admin.token).post(saml).send(valid).expect(201);
    const one = `${saml}/${created.body.id}`;
    const patched = await server
      .as(fx.admin.token)
      .patch(one)
      .send({
        label: 'Entra',
        ssoURL: 'https://login.example.test/',
        defaultTeam: team.body.id,
        defaultRole: 'read',
        certificate: BASE64_DER,
      })
      .expect(200);
    expect(patched.body).toMatchObject({
      label: 'Entra',
      ssoURL: 'https://login.example.test/',
      entityID: valid.entityID,
      defaultTeam: { id: team.body.id },
      defaultRole: 'read',
      certificate: CERTIFICATE,
    });
    const cleared = await server
      .as(fx.admin.token)
      .patch(one)
      .send({ defaultTeam: null, defaultRole: null })
      .expect(200);
    expect(cleared.body).toMatchObject({ defaultRole: null });
    expect(cleared.body).not.toHaveProperty('defaultTeam');
    const bad = await server.as(fx.admin.token).patch(one).send({ ssoURL: 'ftp://x.example' }).expect(400);
    expect(bad.body.error.message).toBe('ssoURL: must be an https URL');
    await server.as(fx.admin.token).patch(one).send({ certificate: 'nope' }).expect(400);
    await server.as(fx.admin.token).patch(`${saml}/nope`).send({ label: 'x' }).expect(404);
    await server.as(fx.admin.token).delete(one).expect(204);
    await server.as(fx.admin.token).get(one).expect(404);
    await server.as(fx.admin.token).delete(one).expect(204);
  });

  it('creates a provider from its label alone: pending (no SSO entry) until entityID, ssoURL and certificate are all set', async () => {
    const created = await server.as(fx.admin.token).post(saml).send({ label: 'Later', defaultRole: null }).expect(201);
    expect(created.body).toMatchObject({
      label: 'Later',
      entityID: '',
      // GitBook requires a URI: about:blank until one is set
      ssoURL: 'about:blank',
      certificate: '',
      status: 'pending',
    });
    const one = `${saml}/${created.body.id}`;
    const entries = async () =>
      (await server.as(reader.token).get(`/v1/orgs/${fx.org.id}/sso`).expect(200)).body.items.map(
        (e: { id: string }) => e.id,
      );
    expect(await entries()).toEqual([]);
    const steps: Array<[object, string]> = [
      [{ entityID: valid.entityID }, 'pending'],
      [{ ssoURL: valid.ssoURL }, 'pending'],
      [{ certificate: CERTIFICATE }, 'active'],
    ];
    for (const [patch, status] of steps)
      expect((await server.as(fx.admin.token).patch(one).send(patch).expect(200)).body.status).toBe(status);
    expect(await entries()).toEqual([created.body.id]);
    expect((await server.as(fx.admin.token).get(one).expect(200)).body).toMatchObject({
      ...valid,
      label: 'Later',
      status: 'active',
    });
    // unsetting one setting makes it pending again, and no longer offered for sign-in
    expect((await server.as(fx.admin.token).patch(one).send({ entityID: '' }).expect(200)).body).toMatchObject({
      entityID: '',
      status: 'pending',
    });
    expect(await entries()).toEqual([]);
    expect(
      (await server.as(fx.admin.token).patch(one).send({ entityID: 'urn:idp', certificate: '' }).expect(200)).body,
    ).toMatchObject({ certificate: '', status: 'pending' });
    const full = await server
      .as(fx.admin.token)
      .post(saml)
      .send({ label: 'All at once', entityID: 'urn:x', ssoURL: valid.ssoURL, certificate: BASE64_DER })
      .expect(201);
    expect(full.body.status).toBe('active');
  });

  it('settings patched concurrently combine into the right status', async () => {
    const created = await server
      .as(fx.admin.token)
      .post(saml)
      .send({ label: 'Race', ssoURL: valid.ssoURL })
      .expect(201);
    const one = `${saml}/${created.body.id}`;
    await Promise.all([
      server.as(fx.admin.token).patch(one).send({ entityID: 'urn:race' }).expect(200),
      server.as(fx.admin.token).patch(one).send({ certificate: CERTIFICATE }).expect(200),
    ]);
    expect((await server.as(fx.admin.token).get(one).expect(200)).body).toMatchObject({
      entityID: 'urn:race',
      certificate: CERTIFICATE,
      status: 'active',
    });
  });

  it('offers SSO entries to every member, guests included', async () => {
    const created = await server.as(fx.admin.token).post(saml).send(valid).expect(201);
    const guest = await addMember(server.ds, fx.org, null);
    for (const token of [reader.token, guest.token]) {
      const res = await server.as(token).get(`/v1/orgs/${fx.org.id}/sso`).expect(200);
      expect(res.body).toEqual({
        items: [{ id: created.body.id, label: 'Okta', startURL: created.body.service.startURL }],
      });
    }
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).get(`/v1/orgs/${fx.org.id}/sso`).expect(404);
    // not a parameter of this operation: ignored, as every unknown query parameter
    await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/sso`).query({ limit: 1 }).expect(200);
  });
});
