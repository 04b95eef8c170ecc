/** A change request's links: its content's, as the space's links list, with what it breaks counted apart. */
import { ContentReferenceStatus } from '@gitbook/api';
import request from 'supertest';
import type { Head } from '../../domain/content/heads';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, newChangeRequest, newSpace } from '../support/api';
import { useGitBookClient } from '../support/gitbook-client';
import { writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

/**
 * A space of three pages (Alpha links to Beta, to Gamma by id and by path; Beta to Alpha and a URL; Gamma to a
 * missing page) and a change request that deletes Beta, adds a second missing link to Gamma and adds Delta (to Alpha).
 */
async function changedSpace(fx: OrgFixture) {
  const space = await newSpace(server, fx.admin, fx.org.id);
  const spaceHead: Head = { kind: 'space', spaceId: space.id };
  const { result: ids } = await writeHead(server, spaceHead, fx.admin.user.id, async (e) => {
    const gamma = await e.createPage({ title: 'Gamma', markdown: '[gone](page:nope)' });
    const beta = await e.createPage({ title: 'Beta' });
    const alpha = await e.createPage({
      title: 'Alpha',
      markdown: `[b](page:${beta})\n\n[c](page:${gamma})\n\n[by path](/gamma)`,
    });
    return { alpha, beta, gamma };
  });
  await writeHead(server, spaceHead, fx.admin.user.id, (e) =>
    e.updatePage(ids.beta, { markdown: `[a](page:${ids.alpha})\n\n<https://example.com/docs>` }),
  );
  const cr = await newChangeRequest(server, fx.admin, space.id);
  const { result: delta, revision } = await writeHead(
    server,
    { kind: 'change-request', changeRequestId: cr.id },
    fx.admin.user.id,
    async (e) => {
      await e.deletePage(ids.beta);
      await e.updatePage(ids.gamma, { markdown: '[gone](page:nope)\n\n[also gone](page:missing)' });
      return e.createPage({ title: 'Delta', markdown: `[a](page:${ids.alpha})` });
    },
  );
  return { space, cr, crRevision: revision.id, ...ids, delta };
}

/** A link as [source page, target page or URL, status]. */
const brief = (l: Json) => [l.locationReferences[0].page, l.targetReference.page ?? l.targetReference.url, l.status];

describe("a change request's links", () => {
  it("lists its content's links with their status there, a page at a time, leaving the space's list as it was", async () => {
    const fx = await createOrg(server.ds);
    const reader = await addMember(server.ds, fx.org, 'read');
    const s = await changedSpace(fx);
    const api = client(reader.token);

    const expected = [
      [s.alpha, s.beta, 'broken'],
      [s.alpha, s.gamma, 'ok'],
      [s.alpha, s.gamma, 'ok'],
      [s.gamma, 'nope', 'broken'],
      [s.gamma, 'missing', 'broken'],
      [s.delta, s.alpha, 'ok'],
    ];
    // by source page id (a stable sort keeps each page's links in their order)
    expected.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

    const all = (await api.spaces.listChangeRequestLinks(s.space.id, s.cr.id)).data;
    expect(all.items.map(brief)).toEqual(expected);
    expect(all.count).toBe(6);
    expect(all.stats).toEqual({ total: 6, broken: { total: 3, changeRequest: 2 } });
    expect(all.items[0].targetReference).toMatchObject({
      versionContext: { type: 'revision', revision: s.crRevision },
    });

    // two at a time: the same links, in the same order
    const paged: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = (await api.spaces.listChangeRequestLinks(s.space.id, s.cr.id, { limit: 2, page: cursor })).data;
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items);
      cursor = page.next?.page;
    } while (cursor);
    expect(paged.map(brief)).toEqual(expected);

    const broken = (
      await api.spaces.listChangeRequestLinks(s.space.id, s.cr.id, { status: ContentReferenceStatus.Broken })
    ).data;
    expect(broken.items.map(brief)).toEqual(expected.filter((l) => l[2] === 'broken'));
    expect(broken.count).toBe(3);
    expect(broken.stats.total).toBe(6);

    // the space still has Beta and none of the change request's edits
    const space = (await server.as(reader.token).get(`/v1/spaces/${s.space.id}/links`).expect(200)).body;
    expect(space.stats).toEqual({ total: 6, broken: { total: 1, changeRequest: 0 } });
    expect(space.items.map(brief)).toContainEqual([s.alpha, s.beta, 'ok']);
  });

  it("answers the space's list for a change request that changed nothing", async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    await writeHead(server, { kind: 'space', spaceId: space.id }, fx.admin.user.id, async (e) => {
      const target = await e.createPage({ title: 'Target' });
      await e.createPage({ title: 'Source', markdown: `[t](page:${target})\n\n[x](page:nope)\n\n[p](/target)` });
    });
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const strip = (body: Json) => ({ ...body, items: body.items.map(brief) });
    const spaceList = (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/links`).expect(200)).body;
    const crList = (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/change-requests/${cr.id}/links`)).body;
    expect(strip(crList)).toEqual(strip(spaceList));
  });

  it('decides path links again where the change request moves their target', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const { result: ids } = await writeHead(
      server,
      { kind: 'space', spaceId: space.id },
      fx.admin.user.id,
      async (e) => {
        const target = await e.createPage({ title: 'Target' });
        const source = await e.createPage({ title: 'Source', markdown: `[p](/target)\n\n[t](page:${target})` });
        return { target, source };
      },
    );
    const cr = await newChangeRequest(server, fx.admin, space.id);
    await writeHead(server, { kind: 'change-request', changeRequestId: cr.id }, fx.admin.user.id, (e) =>
      e.movePage(ids.target, { parent: ids.source }),
    );
    const list = (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/change-requests/${cr.id}/links`)).body;
    expect(list.items.map((l: Json) => [l.targetReference.kind, l.status])).toEqual([
      ['url', 'broken'],
      ['page', 'ok'],
    ]);
    expect(list.items[0].targetReference.url).toBe('/target');
    expect(list.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 1 } });
  });

  it("refuses bad input with 400, answers 401 without a token and 404 outside the caller's reach", async () => {
    const fx = await createOrg(server.ds);
    const s = await changedSpace(fx);
    const links = `/v1/spaces/${s.space.id}/change-requests/${s.cr.id}/links`;
    const as = server.as(fx.admin.token);
    expect((await as.get(links).query({ status: 'dead' }).expect(400)).body.error.message).toMatch(/^status: /);
    expect((await as.get(links).query({ limit: -1 }).expect(400)).body.error.message).toMatch(/^limit: /);
    expect((await as.get(links).query({ page: 'forged' }).expect(400)).body.error.message).toMatch(/^page: /);
    // a cursor of another list
    const other = (await as.get(`/v1/spaces/${s.space.id}/links`).query({ limit: 1 }).expect(200)).body;
    await as.get(links).query({ page: other.next.page }).expect(400);
    await request(server.app).get(links).expect(401);
    const stranger = await createOrg(server.ds);
    await server.as(stranger.admin.token).get(links).expect(404);
    await as.get(`/v1/spaces/${s.space.id}/change-requests/nope/links`).expect(404);
  });
});
