/**
 * Requests as GitBook's own client (`@gitbook/api` 0.137.0, the reference our answers must validate against) sends them,
 * against the app listening on a local port: each gets a 2xx and does what GitBook documents.
 */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { Space } from '../../entities/Space';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, newChangeRequest, newCollection, newSpace } from '../support/api';
import { useServer } from '../support/server';

const server = useServer();
let listener: Server;
let endpoint: string;
beforeAll(async () => {
  listener = server.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  endpoint = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => listener.close(resolve)));

const client = (token: string) => new GitBookAPI({ endpoint, authToken: token });

/** A GitBook document: a heading, a paragraph with marks and a link to a page, a list. */
const DOCUMENT = {
  object: 'document' as const,
  data: { schemaVersion: 1 },
  nodes: [
    {
      object: 'block',
      type: 'heading-2',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Review', marks: [] }] }],
    },
    {
      object: 'block',
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [
            { object: 'leaf', text: 'Looks ', marks: [] },
            { object: 'leaf', text: 'good', marks: [{ object: 'mark', type: 'bold' }] },
            { object: 'leaf', text: ', see ', marks: [] },
          ],
        },
        {
          object: 'inline',
          type: 'link',
          isVoid: false,
          data: { ref: { kind: 'url', url: 'https://example.test/' } },
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'this', marks: [] }] }],
        },
      ],
    },
    {
      object: 'block',
      type: 'list-unordered',
      nodes: [
        {
          object: 'block',
          type: 'list-item',
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'one *star*', marks: [] }] }],
            },
          ],
        },
      ],
    },
  ],
};
const DOCUMENT_MARKDOWN = '## Review\n\nLooks **good**, see [this](https://example.test/)\n\n- one \\*star\\*';

describe('GitBook client requests', () => {
  let fx: OrgFixture;
  let gitbook: GitBookAPI;
  let space: Json;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    gitbook = client(fx.admin.token);
    space = await newSpace(server, fx.admin, fx.org.id);
  });

  it('creates a SAML provider from its label: pending until entityID, ssoURL and certificate are set', async () => {
    const created = await gitbook.orgs.createOrganizationSamlProvider(fx.org.id, { label: 'Okta' });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'saml-provider', label: 'Okta', status: 'pending' });
    const patched = await gitbook.orgs.updateOrganizationSamlProvider(fx.org.id, created.data.id, {
      entityID: 'urn:okta',
      ssoURL: 'https://idp.example.test/sso',
    });
    expect(patched.data.status).toBe('pending');
    expect((await gitbook.orgs.listSsoProviderLoginsInOrganization(fx.org.id)).data.items).toEqual([]);
  });

  it('posts and edits comments and replies with a document body (stored as markdown), {} and format=document, in both forms', async () => {
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const crId: string = cr.id;
    const spaceComment = await gitbook.spaces.postCommentInSpace(space.id, { body: { document: DOCUMENT } as never });
    expect(spaceComment.data.body).toEqual({ markdown: DOCUMENT_MARKDOWN });
    const asDocument = await gitbook.spaces.getCommentInSpace(space.id, spaceComment.data.id, { format: 'document' });
    expect(asDocument.data.body).toEqual({ document: expect.objectContaining({ object: 'document' }) });
    const empty = await gitbook.spaces.postCommentInSpace(space.id, { body: {} });
    expect(empty.data.body).toEqual({});
    const edited = await gitbook.spaces.updateCommentInSpace(space.id, empty.data.id, {
      body: { document: { ...DOCUMENT, nodes: [DOCUMENT.nodes[0]] } } as never,
    });
    expect(edited.data.body).toEqual({ markdown: '## Review' });
    const reply = await gitbook.spaces.postCommentReplyInSpace(space.id, spaceComment.data.id, {
      body: { document: DOCUMENT } as never,
    });
    expect(reply.data.body).toEqual({ markdown: DOCUMENT_MARKDOWN });
    const emptyReply = await gitbook.spaces.postCommentReplyInSpace(space.id, spaceComment.data.id, { body: {} });
    expect(emptyReply.data.body).toEqual({});
    const editedReply = await gitbook.spaces.updateCommentReplyInSpace(space.id, spaceComment.data.id, reply.data.id, {
      body: { markdown: 'Fixed' },
    });
    expect(editedReply.data.body).toEqual({ markdown: 'Fixed' });

    const crComment = await gitbook.spaces.postCommentInChangeRequest(space.id, crId, {
      body: { document: DOCUMENT } as never,
    });
    expect(crComment.data.body).toEqual({ markdown: DOCUMENT_MARKDOWN });
    const crReply = await gitbook.spaces.postCommentReplyInChangeRequest(
      space.id,
      crId,
      crComment.data.id,
      { body: { document: DOCUMENT } as never },
      { format: 'document' },
    );
    expect(crReply.data.body).toEqual({
      document: expect.objectContaining({
        object: 'document',
        nodes: expect.arrayContaining([expect.objectContaining({ type: 'heading-2' })]),
      }),
    });
    const crReplyEdited = await gitbook.spaces.updateCommentReplyInChangeRequest(
      space.id,
      crId,
      crComment.data.id,
      crReply.data.id,
      { body: {}, resolved: true },
    );
    expect(crReplyEdited.data.body).toEqual({});
    const crEdited = await gitbook.spaces.updateCommentInChangeRequest(space.id, crId, crComment.data.id, {
      body: { document: DOCUMENT } as never,
      addedReactions: ['👍'],
    });
    expect(crEdited.data).toMatchObject({
      status: 'resolved',
      body: { markdown: DOCUMENT_MARKDOWN },
      reactions: [{ emoji: '👍', count: 1 }],
    });
    // what a document body says is searchable like markdown: it is stored as markdown
    expect(
      (
        await server
          .as(fx.admin.token)
          .get(`/v1/spaces/${space.id}/comments/${spaceComment.data.id}/replies/${reply.data.id}`)
          .expect(200)
      ).body.body,
    ).toEqual({ markdown: 'Fixed' });
  });

  it('reads a page by its path in both forms, and a page with GitBook 0.202 parameters', async () => {
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const guide = (
      await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${space.id}/content/pages`)
        .send({ title: 'Guide', markdown: 'Top' })
        .expect(201)
    ).body;
    const setup = (
      await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${space.id}/content/pages`)
        .send({ title: 'Set up', parent: guide.id, markdown: 'Run {{ variables.cmd }}' })
        .expect(201)
    ).body;
    const byPath = await gitbook.spaces.getPageByPath(space.id, 'guide/set-up', { format: 'markdown' });
    expect(byPath.data).toMatchObject({ id: setup.id, path: 'guide/set-up', markdown: 'Run {{ variables.cmd }}' });
    const byId = await gitbook.spaces.getPageById(space.id, setup.id, { format: 'markdown' });
    expect(byPath.data).toEqual(byId.data);
    // the change request started before the pages were written: it has none, until it is updated from the space
    await expect(gitbook.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide/set-up')).rejects.toMatchObject({
      code: 404,
    });
    await server.as(fx.admin.token).post(`/v1/spaces/${space.id}/change-requests/${cr.id}/update`).expect(200);
    const crByPath = await gitbook.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide', {
      format: 'document',
    });
    expect(crByPath.data).toMatchObject({ id: guide.id, document: expect.objectContaining({ object: 'document' }) });
    const newer = {
      'format.markdown.refs': 'stable',
      evaluated: 'deterministic-only',
      dereferenced: 'reusable-contents',
      cachedMetadata: true,
    };
    const page = await gitbook.spaces.getPageById(space.id, setup.id, newer as never);
    expect(page.data).toMatchObject({ id: setup.id, markdown: 'Run {{ variables.cmd }}' });
    await expect(gitbook.spaces.getPageByPath(space.id, 'guide/nope')).rejects.toMatchObject({ code: 404 });
    // a client that encodes the slashes reaches the same page
    expect(
      (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/content/path/guide%2Fset-up`).expect(200)).body.id,
    ).toBe(setup.id);
  });

  it('ignores unknown query parameters; filters and orders change requests by creator and orderBy', async () => {
    expect((await gitbook.spaces.getSpaceById(space.id, { somethingNew: 'x' } as never)).data.id).toBe(space.id);
    const editor = await addMember(server.ds, fx.org, 'edit');
    const first = await newChangeRequest(server, fx.admin, space.id, { subject: 'first' });
    const second = await newChangeRequest(server, editor, space.id, { subject: 'second' });
    const third = await newChangeRequest(server, fx.admin, space.id, { subject: 'third' });
    await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${space.id}/change-requests/${first.id}`)
      .send({ subject: 'first, edited' })
      .expect(200);
    const ids = async (query: object) =>
      (await gitbook.spaces.listChangeRequestsForSpace(space.id, query as never)).data.items.map(
        (c: { id: string }) => c.id,
      );
    expect(await ids({})).toEqual([third.id, second.id, first.id]);
    expect(await ids({ orderBy: 'createdAt' })).toEqual([third.id, second.id, first.id]);
    expect(await ids({ orderBy: 'updatedAt' })).toEqual([first.id, third.id, second.id]);
    expect(await ids({ creator: fx.admin.user.id, orderBy: 'updatedAt' })).toEqual([first.id, third.id]);
    expect(await ids({ creator: editor.user.id, requestedReviewer: 'someone', topic: 'x' })).toEqual([second.id]);
    const paged = await gitbook.spaces.listChangeRequestsForSpace(space.id, {
      orderBy: 'updatedAt',
      limit: 2,
    } as never);
    expect(paged.data.items.map((c: { id: string }) => c.id)).toEqual([first.id, third.id]);
    const next = await gitbook.spaces.listChangeRequestsForSpace(space.id, {
      orderBy: 'updatedAt',
      limit: 2,
      page: paged.data.next!.page,
    } as never);
    expect(next.data.items.map((c: { id: string }) => c.id)).toEqual([second.id]);
    // a known parameter with a bad value is still a 400 naming it
    await expect(
      gitbook.spaces.listChangeRequestsForSpace(space.id, { orderBy: 'title' } as never),
    ).rejects.toMatchObject({ code: 400, errorMessage: 'orderBy: must be one of updatedAt, createdAt' });
  });

  it("accepts what the audit against GitBook's document found refused: inherit, guest filter, team owner, role-less member patch, languages", async () => {
    const collection = await newCollection(server, fx.admin, fx.org.id);
    expect(
      (await gitbook.collections.updateCollectionById(collection.id, { defaultLevel: 'edit' } as never)).data
        .defaultLevel,
    ).toBe('edit');
    expect(
      (await gitbook.collections.updateCollectionById(collection.id, { defaultLevel: 'inherit' })).data.defaultLevel,
    ).toBeNull();
    expect(
      (await gitbook.spaces.updateSpaceById(space.id, { defaultLevel: 'inherit', title: 'Renamed' } as never)).data,
    ).toMatchObject({ defaultLevel: null, title: 'Renamed' });
    const guest = await addMember(server.ds, fx.org, null);
    const reader = await addMember(server.ds, fx.org, 'read');
    const guests = await gitbook.orgs.listMembersInOrganizationById(fx.org.id, { role: 'guest' });
    expect(guests.data.items.map((m: { id: string }) => m.id)).toEqual([guest.user.id]);
    const unchanged = await gitbook.orgs.updateMemberInOrganizationById(fx.org.id, reader.user.id, {});
    expect(unchanged.data).toMatchObject({ id: reader.user.id, role: 'read' });
    const team = (
      await server
        .as(fx.admin.token)
        .put(`/v1/orgs/${fx.org.id}/teams`)
        .send({ title: 'Owned', members: [reader.user.id] })
        .expect(201)
    ).body;
    await server
      .as(fx.admin.token)
      .put(`/v1/orgs/${fx.org.id}/teams/${team.id}/members/${reader.user.id}`)
      .send({ role: 'owner' })
      .expect(204);
    await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title: 'Not owned' }).expect(201);
    const owned = await gitbook.orgs.listTeamsInOrganizationById(fx.org.id, { owner: reader.user.id });
    expect(owned.data.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    expect(
      (await gitbook.orgs.createSpace(fx.org.id, { title: 'Slovak', language: 'sk' } as never)).data.language,
    ).toBe('sk');
    const saml = await gitbook.orgs.createOrganizationSamlProvider(fx.org.id, {
      label: 'No role',
      defaultRole: null,
      entityID: '',
    });
    expect(saml.data).toMatchObject({ status: 'pending', entityID: '' });
  });

  it('deletes an unknown space or collection, or another organization’s, with 204 and no change', async () => {
    const outsider = await createOrg(server.ds);
    const theirSpace = await newSpace(server, outsider.admin, outsider.org.id);
    const theirCollection = await newCollection(server, outsider.admin, outsider.org.id);
    for (const response of [
      await gitbook.spaces.deleteSpaceById('no-such-space'),
      await gitbook.spaces.deleteSpaceById(theirSpace.id),
      await gitbook.collections.deleteCollectionById('no-such-collection'),
      await gitbook.collections.deleteCollectionById(theirCollection.id),
    ])
      expect(response.status).toBe(204);
    expect((await server.ds.manager.findOneByOrFail(Space, { id: theirSpace.id })).deletedAt).toBeNull();
    expect((await client(outsider.admin.token).collections.getCollectionById(theirCollection.id)).status).toBe(200);
    await expect(client('dpt_wrong').spaces.deleteSpaceById('no-such-space')).rejects.toBeInstanceOf(GitBookAPIError);
  });
});
