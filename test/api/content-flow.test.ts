/**
 * The acceptance path, entirely through the API: a page created in a change request and
 * merged shows in the space's content, in search and in the backlinks of the page it links to,
 * each read straight after the merge request returns.
 */
import { createOrg } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

it('a page created in a change request and merged is in the content, search and backlinks at once', async () => {
  const { org, admin } = await createOrg(server.ds);
  const api = server.as(admin.token);
  const space = (await api.post(`/v1/orgs/${org.id}/spaces`).send({ title: 'Handbook' }).expect(201)).body;
  const target = (
    await api
      .post(`/v1/spaces/${space.id}/content/pages`)
      .send({ title: 'Deployment', markdown: 'How we ship.' })
      .expect(201)
  ).body;

  const cr = (
    await api.post(`/v1/spaces/${space.id}/change-requests`).send({ subject: 'Add rollback guide' }).expect(201)
  ).body;
  const crContent = `/v1/spaces/${space.id}/change-requests/${cr.number}/content`;
  const created = (
    await api
      .post(`${crContent}/pages`)
      .send({
        title: 'Rollback',
        markdown: `# Rolling back\n\nUse the zeppelin procedure described in [deployment](page:${target.id}).`,
      })
      .expect(201)
  ).body;

  // not in the space before the merge
  const before = await api.get(`/v1/spaces/${space.id}/content/pages`).expect(200);
  expect(before.body.pages.map((p: { id: string }) => p.id)).not.toContain(created.id);

  const merged = await api.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).expect(200);
  expect(merged.body.result).toBe('merge');

  const content = await api.get(`/v1/spaces/${space.id}/content`).expect(200);
  expect(content.body.id).toBe(merged.body.revision);
  expect(content.body.pages.map((p: { title: string }) => p.title)).toEqual(['Deployment', 'Rollback']);

  const search = await api.get(`/v1/spaces/${space.id}/search`).query({ query: 'zeppelin' }).expect(200);
  expect(search.body.items.map((i: { id: string }) => i.id)).toEqual([created.id]);
  expect(search.body.items[0].sections[0].body).toContain('zeppelin');

  const backlinks = await api.get(`/v1/spaces/${space.id}/content/page/${target.id}/backlinks`).expect(200);
  expect(backlinks.body.items.map((r: { page: string }) => r.page)).toEqual([created.id]);

  const crAfter = await api.get(`/v1/spaces/${space.id}/change-requests/${cr.number}`).expect(200);
  expect(crAfter.body).toMatchObject({ status: 'merged', revisionMerged: merged.body.revision, outdated: false });
});
