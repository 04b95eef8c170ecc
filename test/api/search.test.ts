/** Full-text search in a space and across an organization's spaces. */
import { createChangeRequest, mergeChangeRequest } from '../../domain/content/change-requests';
import type { Head } from '../../domain/content/heads';
import { inTransaction } from '../../platform/db/transactions';
import { Actor, addMember, createOrg, OrgFixture, unique } from '../factories';
import { Json, newSpace } from '../support/api';
import { grant } from '../support/content';
import { writeHead } from '../support/heads';
import { heldBack } from '../support/held-back';
import { useServer } from '../support/server';

const server = useServer();

/** A new space and its head, to write content to. */
async function spaceWithHead(fx: OrgFixture, title = 'Space'): Promise<{ space: Json; head: Head }> {
  const space = await newSpace(server, fx.admin, fx.org.id, { title });
  return { space, head: { kind: 'space', spaceId: space.id } };
}

/** A word no other test uses, so the full-text index matches only this test's pages. */
const term = () => unique('zq');

const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. ';

async function search(actor: Actor, path: string, query: Record<string, string | number>): Promise<Json> {
  return (await server.as(actor.token).get(path).query(query).expect(200)).body;
}

describe('space search', () => {
  it('ranks pages by their best section, and answers each with its matching sections, paths and app URLs', async () => {
    const fx = await createOrg(server.ds);
    const { space, head } = await spaceWithHead(fx);
    const word = term();
    const { result: ids } = await writeHead(server, head, fx.admin.user.id, async (e) => {
      const guide = await e.createPage({ title: 'Guide' });
      const once = await e.createPage(
        {
          title: 'Mentions',
          markdown: `Intro text.\n\n## Deep Details\n\n${FILLER.repeat(10)}The ${word} appears once here. ${FILLER.repeat(10)}`,
        },
        { parent: guide },
      );
      const best = await e.createPage({
        title: `All about ${word}`,
        markdown: `The ${word} is described on this page.`,
      });
      await e.createPage({ title: 'Unrelated', markdown: 'Nothing to see.' });
      return { guide, once, best };
    });
    const body = await search(fx.admin, `/v1/spaces/${space.id}/search`, { query: word });
    const app = `${server.config.appBaseUrl}/o/${fx.org.id}/s/${space.id}`;
    expect(body.count).toBe(2);
    expect(body.next).toBeUndefined();
    expect(body.items.map((p: Json) => p.id)).toEqual([ids.best, ids.once]);
    expect(body.items[0]).toEqual({
      id: ids.best,
      title: `All about ${word}`,
      description: '',
      path: `all-about-${word}`,
      score: expect.any(Number),
      rank: 1,
      ancestors: [],
      sections: [
        {
          id: `${ids.best}/0`,
          title: `All about ${word}`,
          path: `all-about-${word}`,
          body: `The ${word} is described on this page.`,
          score: expect.any(Number),
          urls: { app: `${app}/all-about-${word}` },
        },
      ],
      urls: { app: `${app}/all-about-${word}` },
    });
    const second = body.items[1];
    expect(second).toMatchObject({
      id: ids.once,
      title: 'Mentions',
      path: 'guide/mentions',
      ancestors: [{ title: 'Guide' }],
      urls: { app: `${app}/guide/mentions` },
    });
    expect(body.items[0].score).toBeGreaterThan(second.score);
    expect(second.sections).toHaveLength(1);
    expect(second.sections[0]).toMatchObject({
      id: `${ids.once}/deep-details`,
      title: 'Deep Details',
      path: 'guide/mentions#deep-details',
      urls: { app: `${app}/guide/mentions#deep-details` },
    });
    // the long body is cut around the match
    expect(second.sections[0].body.length).toBeLessThanOrEqual(500);
    expect(second.sections[0].body).toContain(`The ${word} appears once here.`);
  });

  it('is current as soon as a live edit or a merge returns', async () => {
    const fx = await createOrg(server.ds);
    const { space, head } = await spaceWithHead(fx);
    const word = term();
    const path = `/v1/spaces/${space.id}/search`;
    const { result: page } = await writeHead(server, head, fx.admin.user.id, (e) =>
      e.createPage({ title: 'Draft', markdown: `Mentions ${word}.` }),
    );
    expect((await search(fx.admin, path, { query: word })).items.map((p: Json) => p.id)).toEqual([page]);
    await writeHead(server, head, fx.admin.user.id, (e) => e.updatePage(page, { markdown: 'Rewritten.' }));
    expect((await search(fx.admin, path, { query: word })).count).toBe(0);

    const cr = await inTransaction(server.ds, (db) => createChangeRequest(db, space.id, {}, fx.admin.user.id));
    const { result: proposed } = await writeHead(
      server,
      { kind: 'change-request', changeRequestId: cr.id },
      fx.admin.user.id,
      (e) => e.createPage({ title: 'Proposed', markdown: `Proposes ${word}.` }),
    );
    expect((await search(fx.admin, path, { query: word })).count).toBe(0);
    await inTransaction(heldBack(server.ds), (db) =>
      mergeChangeRequest(db, cr.id, fx.admin.user.id, server.config.appBaseUrl),
    );
    expect((await search(fx.admin, path, { query: word })).items.map((p: Json) => p.id)).toEqual([proposed]);
  });

  it('finds short words and stop-words by substring, and takes quotes and control characters as plain text', async () => {
    const fx = await createOrg(server.ds);
    const { space, head } = await spaceWithHead(fx);
    const word = term();
    const { result: ids } = await writeHead(server, head, fx.admin.user.id, async (e) => ({
      go: await e.createPage({ title: 'Go', markdown: 'Let us go to the zoo.' }),
      other: await e.createPage({ title: 'Other', markdown: `About ${word}.` }),
    }));
    const path = `/v1/spaces/${space.id}/search`;
    expect((await search(fx.admin, path, { query: 'go' })).items.map((p: Json) => p.id)).toEqual([ids.go]);
    const phrase = await search(fx.admin, path, { query: 'to the' });
    expect(phrase.items.map((p: Json) => p.id)).toEqual([ids.go]);
    expect(phrase.items[0].sections[0].body).toBe('Let us go to the zoo.');
    expect((await search(fx.admin, path, { query: `"${word}\u0001 )(*` })).items.map((p: Json) => p.id)).toEqual([
      ids.other,
    ]);
    expect((await search(fx.admin, path, { query: '%' })).count).toBe(0);
  });

  it("shows a page's opening section when only the index matches it (accents fold in the index, not in the sections' scoring)", async () => {
    const fx = await createOrg(server.ds);
    const { space, head } = await spaceWithHead(fx);
    const word = term();
    const { result: page } = await writeHead(server, head, fx.admin.user.id, (e) =>
      e.createPage({ title: 'Menu', markdown: `Opening words.\n\n## Drinks\n\nServed: ${word}é.` }),
    );
    const found = await search(fx.admin, `/v1/spaces/${space.id}/search`, { query: `${word}e` });
    expect(found.items.map((p: Json) => p.id)).toEqual([page]);
    expect(found.items[0].sections.map((s: Json) => s.body)).toEqual(['Opening words.']);
  });

  it('pages by score then id with cursors bound to the query', async () => {
    const fx = await createOrg(server.ds);
    const { space, head } = await spaceWithHead(fx);
    const word = term();
    await writeHead(server, head, fx.admin.user.id, async (e) => {
      for (let i = 0; i < 5; i++) await e.createPage({ title: `Page ${i}`, markdown: `${word} `.repeat(i + 1) });
      // equal scores: ordered by page id
      for (const twin of ['Twin a', 'Twin b']) await e.createPage({ title: twin, markdown: `${word} ` });
      await e.createPage({ title: 'Unrelated', markdown: 'nothing' });
    });
    const path = `/v1/spaces/${space.id}/search`;
    const all = await search(fx.admin, path, { query: word });
    expect(all.count).toBe(7);
    // more occurrences rank higher
    expect(all.items.slice(0, 4).map((p: Json) => p.title)).toEqual(['Page 4', 'Page 3', 'Page 2', 'Page 1']);
    expect(
      all.items
        .slice(4)
        .map((p: Json) => p.title)
        .sort(),
    ).toEqual(['Page 0', 'Twin a', 'Twin b']);
    const seen: Json[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const body = await search(fx.admin, path, { query: word, limit: 2, ...(cursor ? { page: cursor } : {}) });
      expect(body.count).toBe(7);
      seen.push(...body.items);
      cursor = body.next?.page;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    // GitBook 0.202's rank: the position among all results, kept across pages
    expect(seen.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // relevance moves as other tests write to the shared index, so the lists are compared without it
    const withoutScores = (items: Json[]) =>
      items.map((p) => ({
        ...p,
        score: expect.any(Number),
        sections: p.sections.map((s: Json) => ({ ...s, score: expect.any(Number) })),
      }));
    expect(seen).toEqual(withoutScores(all.items));
    const first = await search(fx.admin, path, { query: word, limit: 2 });
    const forged = await server
      .as(fx.admin.token)
      .get(path)
      .query({ query: word, page: `${first.next.page.split('.')[0]}.AAAA` })
      .expect(400);
    expect(forged.body).toEqual({ error: { code: 400, message: 'page: invalid or expired cursor' } });
    await server
      .as(fx.admin.token)
      .get(path)
      .query({ query: `${word} more`, page: first.next.page })
      .expect(400);
  });

  it('validates the query and hides the space from other organizations', async () => {
    const fx = await createOrg(server.ds);
    const { space } = await spaceWithHead(fx);
    const path = `/v1/spaces/${space.id}/search`;
    const tooLong = await server
      .as(fx.admin.token)
      .get(path)
      .query({ query: 'a'.repeat(513) })
      .expect(400);
    expect(tooLong.body).toEqual({ error: { code: 400, message: 'query: must be at most 512 characters' } });
    await server
      .as(fx.admin.token)
      .get(path)
      .query({ query: 'a'.repeat(512) })
      .expect(200);
    expect((await server.as(fx.admin.token).get(path).expect(400)).body.error.message).toBe('query: is required');
    expect((await server.as(fx.admin.token).get(path).query({ query: '   ' }).expect(400)).body.error.message).toBe(
      'query: must be at least 1 character',
    );
    expect(
      (await server.as(fx.admin.token).get(path).query({ query: 'x', limit: 'many' }).expect(400)).body.error.message,
    ).toBe('limit: must be an integer');
    // an unknown query parameter is ignored (GitBook's newer clients send some), a known one stays strict
    const plain = (await server.as(fx.admin.token).get(path).query({ query: 'x' }).expect(200)).body;
    expect((await server.as(fx.admin.token).get(path).query({ query: 'x', sort: 'score' }).expect(200)).body).toEqual(
      plain,
    );
    await server.as('garbage').get(path).query({ query: 'x' }).expect(401);
    const stranger = (await createOrg(server.ds)).admin;
    expect((await server.as(stranger.token).get(path).query({ query: 'x' }).expect(404)).body.error.message).toBe(
      'space not found',
    );
  });
});

describe('the last word matches as a prefix, as users type', () => {
  it('finds "installation" and "installing" from "instal", in both searches, and only at word starts', async () => {
    const fx = await createOrg(server.ds);
    const stem = term();
    const { space, head } = await spaceWithHead(fx, 'Guide');
    await writeHead(server, head, fx.admin.user.id, async (e) => [
      await e.createPage({ title: 'Setup', markdown: `The ${stem}ation takes a minute.` }),
      await e.createPage({ title: 'Upgrade', markdown: `When ${stem}ing a new release, read this first.` }),
      await e.createPage({ title: 'Inside', markdown: `A word with it inside: re${stem}ation.` }),
    ]);
    const inSpace = await search(fx.admin, `/v1/spaces/${space.id}/search`, { query: stem });
    expect(inSpace.items.map((p: Json) => p.title).sort()).toEqual(['Setup', 'Upgrade']);
    expect(inSpace.items.find((p: Json) => p.title === 'Setup').sections[0].body).toContain(`${stem}ation`);
    const inOrg = await search(fx.admin, `/v1/orgs/${fx.org.id}/search`, { query: stem });
    expect(inOrg.items[0].pages.map((p: Json) => p.title).sort()).toEqual(['Setup', 'Upgrade']);
    // an earlier word is a whole word: the stem first, then a full word, finds nothing of the stem's
    const earlier = await search(fx.admin, `/v1/spaces/${space.id}/search`, { query: `${stem} minute` });
    expect(earlier.items.map((p: Json) => p.title)).toEqual(['Setup']);
  });
});

describe('organization search', () => {
  it('groups matches by space, best space first, over the spaces the caller can view', async () => {
    const fx = await createOrg(server.ds);
    const word = term();
    const strong = await spaceWithHead(fx, 'Strong');
    const weak = await spaceWithHead(fx, 'Weak');
    const deleted = await spaceWithHead(fx, 'Deleted');
    const { result: strongPages } = await writeHead(server, strong.head, fx.admin.user.id, async (e) => [
      await e.createPage({ title: `${word} handbook`, markdown: `${word} ${word} ${word}` }),
      await e.createPage({ title: 'Aside', markdown: `One ${word}.` }),
    ]);
    const { result: weakPage } = await writeHead(server, weak.head, fx.admin.user.id, (e) =>
      e.createPage({ title: 'Note', markdown: `A ${word}.` }),
    );
    await writeHead(server, deleted.head, fx.admin.user.id, (e) =>
      e.createPage({ title: 'Gone', markdown: `A ${word}.` }),
    );
    await server.as(fx.admin.token).delete(`/v1/spaces/${deleted.space.id}`).expect(204);
    const path = `/v1/orgs/${fx.org.id}/search`;

    const body = await search(fx.admin, path, { query: word });
    expect(body.count).toBe(2);
    expect(body.items.map((s: Json) => [s.id, s.title])).toEqual([
      [strong.space.id, 'Strong'],
      [weak.space.id, 'Weak'],
    ]);
    expect(body.items[0].pages.map((p: Json) => p.id)).toEqual(strongPages);
    expect(body.items.map((s: Json) => s.type)).toEqual(['space', 'space']);
    expect(body.items[0].score).toBeGreaterThan(body.items[1].score);
    expect(body.items[1].pages).toEqual([
      {
        id: weakPage,
        title: 'Note',
        description: '',
        path: 'note',
        score: expect.any(Number),
        rank: body.items[0].pages.length + 1,
        ancestors: [],
        sections: [
          {
            id: `${weakPage}/0`,
            title: 'Note',
            path: 'note',
            body: `A ${word}.`,
            score: expect.any(Number),
            urls: { app: `${server.config.appBaseUrl}/o/${fx.org.id}/s/${weak.space.id}/note` },
          },
        ],
        urls: { app: `${server.config.appBaseUrl}/o/${fx.org.id}/s/${weak.space.id}/note` },
      },
    ]);

    const first = await search(fx.admin, path, { query: word, limit: 1 });
    expect(first.items.map((s: Json) => s.id)).toEqual([strong.space.id]);
    const second = await search(fx.admin, path, { query: word, limit: 1, page: first.next.page });
    expect(second.items.map((s: Json) => s.id)).toEqual([weak.space.id]);
    expect(second.next).toBeUndefined();
    expect(second.count).toBe(2);

    // a guest sees only the space granted to them; their cursors are their own
    const guest = await addMember(server.ds, fx.org, null);
    expect(await search(guest, path, { query: word })).toEqual({ items: [], count: 0 });
    await grant(server.ds, fx.org.id, 'space', weak.space.id, guest.user.id, 'read');
    const granted = await search(guest, path, { query: word });
    expect(granted.items.map((s: Json) => s.id)).toEqual([weak.space.id]);
    expect(granted.count).toBe(1);
    await server.as(guest.token).get(path).query({ query: word, limit: 1, page: first.next.page }).expect(400);

    const reader = await addMember(server.ds, fx.org, 'read');
    expect((await search(reader, path, { query: word })).count).toBe(2);
  });

  it('says when a space has more matching pages than it shows', async () => {
    const fx = await createOrg(server.ds);
    const word = term();
    const many = await spaceWithHead(fx, 'Many');
    const few = await spaceWithHead(fx, 'Few');
    await writeHead(server, many.head, fx.admin.user.id, async (e) => {
      for (let i = 0; i < 7; i++) await e.createPage({ title: `Page ${i}`, markdown: `About ${word}, part ${i}.` });
    });
    await writeHead(server, few.head, fx.admin.user.id, (e) => e.createPage({ title: 'One', markdown: `A ${word}.` }));
    const body = await search(fx.admin, `/v1/orgs/${fx.org.id}/search`, { query: word });
    const bySpace = Object.fromEntries(
      body.items.map((s: Json) => [s.title, [s.pages.length, s.matchingPages, s.morePages]]),
    );
    expect(bySpace).toEqual({ Many: [5, 7, true], Few: [1, 1, false] });
    // the space's own search lists all seven
    expect((await search(fx.admin, `/v1/spaces/${many.space.id}/search`, { query: word })).count).toBe(7);
  });

  it('validates the query; other organizations get 404', async () => {
    const fx = await createOrg(server.ds);
    const path = `/v1/orgs/${fx.org.id}/search`;
    expect(
      (
        await server
          .as(fx.admin.token)
          .get(path)
          .query({ query: 'b'.repeat(513) })
          .expect(400)
      ).body.error.message,
    ).toBe('query: must be at most 512 characters');
    await server.as('garbage').get(path).query({ query: 'x' }).expect(401);
    const stranger = (await createOrg(server.ds)).admin;
    expect((await server.as(stranger.token).get(path).query({ query: 'x' }).expect(404)).body.error.message).toBe(
      'organization not found',
    );
  });
});
