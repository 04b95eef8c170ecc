/**
 * Conditional requests on pages: a page's ETag follows what its answer shows (its own version, its path, the
 * pages under it) and nothing else, and an `If-Match` edit is checked under the head's lock.
 */
import { createOrg, OrgFixture } from '../factories';
import { Json, newChangeRequest, newSpace } from '../support/api';
import { useServer } from '../support/server';

const server = useServer();

describe('conditional requests on a page', () => {
  let fx: OrgFixture;
  let content: string;
  const pages: Record<string, Json> = {};
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    content = `/v1/spaces/${(await newSpace(server, fx.admin, fx.org.id)).id}/content`;
    pages.guide = await create({ title: 'Guide', markdown: 'The guide.' });
    pages.setup = await create({ title: 'Setup', markdown: 'Set it up.', parent: pages.guide.id });
    pages.faq = await create({ title: 'FAQ', markdown: 'Questions.' });
  });

  async function create(body: Json): Promise<Json> {
    return (await server.as(fx.admin.token).post(`${content}/pages`).send(body).expect(201)).body;
  }
  const read = (page: Json, query: Json = {}) =>
    server.as(fx.admin.token).get(`${content}/page/${page.id}`).query(query);
  const etagOf = async (page: Json) => (await read(page).expect(200)).headers.etag as string;
  const edit = (page: Json, body: Json, ifMatch?: string) => {
    const req = server.as(fx.admin.token).patch(`${content}/page/${page.id}`);
    return (ifMatch ? req.set('If-Match', ifMatch) : req).send(body);
  };

  it('carries a strong ETag, by id and by path alike; If-None-Match with it answers 304 with no body', async () => {
    const etag = await etagOf(pages.guide);
    expect(etag).toMatch(/^"[^"]+"$/);
    const byPath = await server.as(fx.admin.token).get(`${content}/path/guide`).expect(200);
    expect(byPath.headers.etag).toBe(etag);
    const unchanged = await read(pages.guide).set('If-None-Match', etag).expect(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
  });

  it('keeps its ETag when another page changes, and moves it when the page, a page under it or its path changes', async () => {
    const guide = await etagOf(pages.guide);
    const setup = await etagOf(pages.setup);
    await edit(pages.faq, { markdown: 'More questions.' }).expect(200);
    await read(pages.guide).set('If-None-Match', guide).expect(304);
    await read(pages.setup).set('If-None-Match', setup).expect(304);

    // a page under it is in its answer
    await edit(pages.setup, { markdown: 'Set it up again.' }).expect(200);
    expect(await etagOf(pages.guide)).not.toBe(guide);

    // its path is in its answer: renaming the parent moves the child's path
    const setupNow = await etagOf(pages.setup);
    await edit(pages.guide, { title: 'Handbook' }).expect(200);
    const moved = await read(pages.setup).set('If-None-Match', setupNow).expect(200);
    expect(moved.body.path).toBe('handbook/setup');
  });

  it('gives an evaluated body its own ETag', async () => {
    const stored = await etagOf(pages.faq);
    const evaluated = (await read(pages.faq, { evaluated: true }).expect(200)).headers.etag;
    expect(evaluated).not.toBe(stored);
    await read(pages.faq, { evaluated: true }).set('If-None-Match', evaluated).expect(304);
  });

  it('refuses an edit whose If-Match is stale (412, nothing written) and takes the current one', async () => {
    const etag = await etagOf(pages.faq);
    await edit(pages.faq, { markdown: 'First.' }, etag).expect(200);
    const refused = await edit(pages.faq, { markdown: 'Second.' }, etag).expect(412);
    expect(refused.body.error).toEqual({ code: 412, message: expect.stringMatching(/^If-Match: /) });
    expect((await read(pages.faq).expect(200)).body.markdown).toBe('First.');
    await edit(pages.faq, { markdown: 'Third.' }, await etagOf(pages.faq)).expect(200);
  });

  it('lets one of two concurrent editors holding one ETag win; the other gets 412', async () => {
    const etag = await etagOf(pages.faq);
    const answers = await Promise.all([
      edit(pages.faq, { markdown: 'Alice was here.' }, etag),
      edit(pages.faq, { markdown: 'Bob was here.' }, etag),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await read(pages.faq).expect(200)).body.markdown).toBe(winner.body.markdown);
  });

  it('answers 412 to a DELETE whose If-Match is stale or whose page is gone', async () => {
    const del = (ifMatch: string) =>
      server.as(fx.admin.token).delete(`${content}/page/${pages.faq.id}`).set('If-Match', ifMatch);
    const stale = await etagOf(pages.faq);
    await edit(pages.faq, { title: 'Questions' }).expect(200);
    await del(stale).expect(412);
    await del(await etagOf(pages.faq)).expect(204);
    await del('*').expect(412);
  });

  it("works the same on a change request's content", async () => {
    const cr = await newChangeRequest(server, fx.admin, content.split('/')[3]);
    const crContent = `/v1/spaces/${cr.space}/change-requests/${cr.id}/content/page/${pages.faq.id}`;
    const etag = (await server.as(fx.admin.token).get(crContent).expect(200)).headers.etag;
    await server.as(fx.admin.token).get(crContent).set('If-None-Match', etag).expect(304);
    const patch = () => server.as(fx.admin.token).patch(crContent).set('If-Match', etag);
    await patch().send({ markdown: 'In review.' }).expect(200);
    await patch().send({ markdown: 'Again.' }).expect(412);
  });
});
