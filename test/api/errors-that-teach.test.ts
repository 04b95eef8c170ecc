/**
 * Errors a newcomer meets off the printed path say how to fix the request: the method a path takes, the field
 * they meant, the operation a field belongs to, where the JSON broke, the form of the Authorization header, and
 * nothing about the body to a caller who may not act at all.
 */
import request from 'supertest';
import { addMember, createOrg, OrgFixture } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

let fx: OrgFixture;
beforeEach(async () => {
  fx = await createOrg(server.ds);
});

const error = (res: request.Response) => ({ status: res.status, message: res.body.error?.message });

describe('routing', () => {
  it('answers 405 with Allow for a known path asked with a method it lacks', async () => {
    const del = await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}`).expect(405);
    expect(del.headers.allow).toBe('GET, HEAD, PATCH');
    expect(del.body).toEqual({
      error: { code: 405, message: 'method: DELETE is not allowed on this path; it takes GET, HEAD, PATCH' },
    });
    const put = await server.as(fx.admin.token).put('/v1/spaces/anything').send({}).expect(405);
    expect(put.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    // an unknown path is still a 404, and a 405 needs no token: the route table is public in the reference
    await request(server.app).get('/v1/nothing-here').expect(404);
    expect((await request(server.app).delete('/v1/orgs').expect(405)).headers.allow).toBe('GET, HEAD, POST');
  });

  it('GET / points to the reference, the OpenAPI document, the tour and how to authenticate', async () => {
    const res = await request(server.app).get('/').expect(200).expect('Content-Type', /json/);
    expect(res.body).toEqual({
      reference: expect.stringMatching(/\/docs$/),
      openapi: expect.stringMatching(/\/v1\/openapi\.json$/),
      tour: expect.stringContaining('docs/tour.md'),
      authentication: expect.stringContaining('Authorization: Bearer <token>'),
    });
    await request(server.app).get(new URL(res.body.openapi).pathname).expect(200);
    await request(server.app).get(new URL(res.body.reference).pathname).expect(200);
  });
});

describe('errors that say how to fix the request', () => {
  it('names the closest field, else lists the accepted ones, else the operation a field belongs to', async () => {
    const created = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'Guide' });
    const spaceId = created.body.id as string;
    const patch = (body: object) => server.as(fx.admin.token).patch(`/v1/spaces/${spaceId}`).send(body);
    expect(error(await patch({ titel: 'x' }))).toEqual({
      status: 400,
      message: 'titel: unknown field; did you mean title?',
    });
    expect(error(await patch({ colour: 'red' }))).toEqual({
      status: 400,
      message:
        'colour: unknown field; accepted: editMode, title, defaultLevel, language, emoji, visibility, mergeRules',
    });
    expect(error(await patch({ parent: 'abc' }))).toEqual({
      status: 400,
      message: 'parent: unknown field; moving a space is POST /v1/spaces/{spaceId}/move',
    });
    // a field literally named `body` and a whole-body error do not share a prefix
    const comment = await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${spaceId}/comments`)
      .set('Content-Type', 'application/json')
      .send('[1]');
    expect(error(comment)).toEqual({ status: 400, message: 'request body: must be an object, not array' });
  });

  it('places malformed JSON at its line and column', async () => {
    const res = await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/spaces`)
      .set('Content-Type', 'application/json')
      .send('{\n  "title": "Guide",\n  "emoji": \n}');
    expect(error(res)).toEqual({
      status: 400,
      message: 'request body: malformed JSON at line 4, column 1 (value expected)',
    });
  });

  it('says the form of an Authorization header that lacks its scheme', async () => {
    const res = await request(server.app).get(`/v1/orgs/${fx.org.id}`).set('Authorization', fx.admin.token);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('send it as Authorization: Bearer <token>');
    const none = await request(server.app).get(`/v1/orgs/${fx.org.id}`);
    expect(none.body.error.message).toBe('a bearer token is required: send it as Authorization: Bearer <token>');
  });
});

describe('authorization before validation', () => {
  it('a member who may not administer the organization gets 403 for an invalid title, not the 400', async () => {
    const member = await addMember(server.ds, fx.org, 'read');
    const invalid = { title: '', unknown: 1 };
    const res = await server.as(member.token).patch(`/v1/orgs/${fx.org.id}`).send(invalid);
    expect(res.status).toBe(403);
    expect(res.body.error.message).not.toMatch(/title|unknown/);
    // an outsider learns nothing either: the organization is not found
    const outsider = await createOrg(server.ds);
    expect((await server.as(outsider.admin.token).patch(`/v1/orgs/${fx.org.id}`).send(invalid)).status).toBe(404);
    // the admin gets the validation error
    expect(error(await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send(invalid)).status).toBe(400);
  });

  it('a reader who may not edit a space gets 403 for an invalid page body', async () => {
    const reader = await addMember(server.ds, fx.org, 'read');
    const created = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'S' });
    const res = await server
      .as(reader.token)
      .post(`/v1/spaces/${created.body.id}/content/pages`)
      .send({ nonsense: true });
    expect(res.status).toBe(403);
  });
});
