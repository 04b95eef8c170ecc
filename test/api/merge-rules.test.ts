/**
 * Merge rules: stored on organizations and spaces through their PATCH, answered as stored, and enforced by the
 * merge (409 naming each failing rule, nothing written) with reviews counted at the change request's revision.
 */
import request from 'supertest';
import { removeMember } from '../../domain/members/members';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, newChangeRequest, newSpace } from '../support/api';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

const REQUIRE_APPROVAL = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] };

describe('merge rules', () => {
  let fx: OrgFixture;
  let space: Json;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    space = await newSpace(server, fx.admin, fx.org.id);
  });

  const crPath = (cr: Json) => `/v1/spaces/${space.id}/change-requests/${cr.id}`;
  const setSpaceRules = async (mergeRules: object) =>
    (await server.as(fx.admin.token).patch(`/v1/spaces/${space.id}`).send({ mergeRules }).expect(200)).body;
  const commit = async (token: string, cr: Json, title: string) =>
    server
      .as(token)
      .post(`${crPath(cr)}/content/pages`)
      .send({ title, markdown: `${title}.` })
      .expect(201);
  const merge = (token: string, cr: Json) => server.as(token).post(`${crPath(cr)}/merge`);
  const review = (token: string, cr: Json, status: string) =>
    server
      .as(token)
      .post(`${crPath(cr)}/reviews`)
      .send({ status })
      .expect(201);

  it('walks the review workflow: one approval required, a commit makes it stale, a second one merges; a custom rule names its message', async () => {
    const author = await addMember(server.ds, fx.org, 'edit');
    const first = await addMember(server.ds, fx.org, 'review');
    const second = await addMember(server.ds, fx.org, 'review');

    // 1. the space requires one approval, and answers the stored value
    expect((await setSpaceRules(REQUIRE_APPROVAL)).mergeRules).toEqual(REQUIRE_APPROVAL);
    expect((await client(fx.admin.token).spaces.getSpaceById(space.id)).data).toMatchObject({
      mergeRules: REQUIRE_APPROVAL,
    });
    const cr = await newChangeRequest(server, author, space.id, { subject: 'Install guide' });
    await commit(author.token, cr, 'Install');

    // 2. the merge is refused, naming the rule, and nothing is written
    const refused = await merge(fx.admin.token, cr).expect(409);
    expect(refused.body.error.message).toBe(
      'the merge rules are not met: require_at_least_one_approved_review: no approval on the current revision',
    );
    expect((await server.as(fx.admin.token).get(crPath(cr)).expect(200)).body.status).toBe('open');
    expect((await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200)).body.revision).toBe(
      space.revision,
    );

    // 3. a reviewer approves, at the change request's revision
    const approval = await client(first.token).spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'approved' as never,
    });
    const head = (await server.as(author.token).get(crPath(cr)).expect(200)).body.revision;
    expect(approval.data).toMatchObject({ status: 'approved', revision: head, outdated: false });

    // 4. a new commit makes the approval stale: the merge is refused again
    await commit(author.token, cr, 'Upgrade');
    const moved = (await server.as(author.token).get(crPath(cr)).expect(200)).body.revision;
    expect(moved).not.toBe(head);
    const reviews = (
      await server
        .as(author.token)
        .get(`${crPath(cr)}/reviews`)
        .expect(200)
    ).body.items;
    expect(reviews.map((r: Json) => [r.id, r.revision === moved])).toEqual([[approval.data.id, false]]);
    expect((await merge(fx.admin.token, cr).expect(409)).body.error.message).toContain(
      'require_at_least_one_approved_review',
    );

    // 5. a second approval, on the current revision, lets the merge through
    await review(second.token, cr, 'approved');
    const merged = await merge(fx.admin.token, cr).expect(200);
    expect(merged.body.result).toBe('merge');

    // 6. a custom rule with a message blocks another change request and names its message
    await setSpaceRules({
      type: 'rules',
      rules: [
        {
          rule: 'custom',
          expression: 'changeRequest.subject != "WIP" && !changeRequest.outdated',
          message: 'Give the change request a real subject and update it first',
        },
      ],
    });
    const wip = await newChangeRequest(server, author, space.id, { subject: 'WIP' });
    await commit(author.token, wip, 'Draft');
    expect((await merge(fx.admin.token, wip).expect(409)).body.error).toEqual({
      code: 409,
      message: 'the merge rules are not met: Give the change request a real subject and update it first',
      rules: [{ rule: 'custom', message: 'Give the change request a real subject and update it first' }],
    });
    await server.as(author.token).patch(crPath(wip)).send({ subject: 'Draft page' }).expect(200);
    await merge(fx.admin.token, wip).expect(200);
  });

  it("takes the organization's default when the space inherits, and the space's own rules or none otherwise", async () => {
    const org = (await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(200)).body;
    expect(org.mergeRules).toEqual({ type: 'none' });
    expect(space.mergeRules).toEqual({ type: 'inherit' });
    const orgRules = { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] };
    const patched = await client(fx.admin.token).orgs.updateOrganizationById(fx.org.id, {
      mergeRules: orgRules,
    } as never);
    expect(patched.data).toMatchObject({ mergeRules: orgRules });
    expect((await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}`).expect(200)).body.mergeRules).toEqual(
      orgRules,
    );

    const unnamed = await newChangeRequest(server, fx.admin, space.id);
    expect((await merge(fx.admin.token, unnamed).expect(409)).body.error.message).toBe(
      'the merge rules are not met: require_change_request_subject: the change request has no subject',
    );
    expect((await setSpaceRules({ type: 'none' })).mergeRules).toEqual({ type: 'none' });
    await merge(fx.admin.token, unnamed).expect(200);

    expect((await setSpaceRules({ type: 'inherit' })).mergeRules).toEqual({ type: 'inherit' });
    const again = await newChangeRequest(server, fx.admin, space.id);
    await merge(fx.admin.token, again).expect(409);
    await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ mergeRules: { type: 'none' } })
      .expect(200);
    await merge(fx.admin.token, again).expect(200);
  });

  it('checks every built rule: reviewers, bypass, author, subject, description, up to date', async () => {
    const author = await addMember(server.ds, fx.org, 'review');
    const ada = await addMember(server.ds, fx.org, 'review', 'ada');
    const bob = await addMember(server.ds, fx.org, 'review', 'bob');
    const lead = await addMember(server.ds, fx.org, 'admin');
    await setSpaceRules({
      type: 'rules',
      rules: [
        { rule: 'require_at_least_one_review' },
        { rule: 'require_all_reviews_approved' },
        { rule: 'require_specific_reviewers', users: [ada.user.id] },
        { rule: 'require_one_of_specific_reviewers', users: [ada.user.id, bob.user.id] },
        { rule: 'require_change_request_description' },
        { rule: 'require_up_to_date_change_request' },
        { rule: 'require_author_to_merge' },
        { rule: 'allow_bypass', users: [lead.user.id] },
      ],
    });
    const cr = await newChangeRequest(server, author, space.id, { subject: 'Rules' });
    await commit(author.token, cr, 'One');
    const failing = async (token: string) =>
      ((await merge(token, cr).expect(409)).body.error.rules as Json[]).map((r) => r.rule);
    expect(await failing(fx.admin.token)).toEqual([
      'require_at_least_one_review',
      'require_specific_reviewers',
      'require_one_of_specific_reviewers',
      'require_change_request_description',
      'require_author_to_merge',
    ]);

    await review(bob.token, cr, 'changes-requested');
    const message = (await merge(author.token, cr).expect(409)).body.error.message;
    expect(message).toContain(`require_all_reviews_approved: bob (${bob.user.id}) requested changes`);
    expect(message).toContain(
      `require_specific_reviewers: no approval on the current revision from ada (${ada.user.id})`,
    );

    await review(ada.token, cr, 'approved');
    await review(bob.token, cr, 'approved');
    await server
      .as(author.token)
      .patch(crPath(cr))
      .send({ description: { object: 'document', data: {}, nodes: [paragraph('Why: clearer rules.')] } })
      .expect(200);
    // the space moves on: the change request is outdated
    const other = await newChangeRequest(server, fx.admin, space.id, { subject: 'Elsewhere' });
    await commit(fx.admin.token, other, 'Elsewhere');
    await merge(lead.token, other).expect(200);
    expect(await failing(author.token)).toEqual(['require_up_to_date_change_request']);
    await server
      .as(author.token)
      .post(`${crPath(cr)}/update`)
      .expect(200);
    // updating is a commit: the approvals went stale
    expect(await failing(author.token)).toEqual([
      'require_at_least_one_review',
      'require_specific_reviewers',
      'require_one_of_specific_reviewers',
    ]);
    await review(ada.token, cr, 'approved');
    await merge(author.token, cr).expect(200);
  });

  it('counts a rule naming a user who has left the organization as unmet', async () => {
    const ada = await addMember(server.ds, fx.org, 'review');
    await setSpaceRules({
      type: 'rules',
      rules: [{ rule: 'require_one_of_specific_reviewers', users: [ada.user.id] }],
    });
    const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Left' });
    await commit(fx.admin.token, cr, 'Page');
    await review(ada.token, cr, 'approved');
    await removeMember(server.ds.manager, fx.org.id, ada.user.id);
    const refused = await merge(fx.admin.token, cr).expect(409);
    expect(refused.body.error.message).toBe(
      `the merge rules are not met: require_one_of_specific_reviewers: ${ada.user.displayName} (${ada.user.id}) no longer belong to the organization`,
    );
    // the stored rule still names them
    const read = (await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200)).body;
    expect(read.mergeRules.rules[0].users).toEqual([ada.user.id]);
  });

  it('validates mergeRules on both PATCH operations', async () => {
    const stranger = await createOrg(server.ds);
    const cases: Array<[unknown, string]> = [
      [{ type: 'some' }, 'mergeRules.type: must be one of inherit, rules, none'],
      [{ type: 'rules' }, 'mergeRules.rules: is required'],
      [
        { type: 'rules', rules: [{ rule: 'require_agent_review' }] },
        'mergeRules.rules.0.rule: require_agent_review is not supported here',
      ],
      [
        { type: 'rules', rules: [{ rule: 'require_magic' }] },
        expect.stringMatching(/^mergeRules\.rules\.0\.rule: must be one of require_at_least_one_review, /),
      ],
      [{ type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] }, 'mergeRules.rules.0.users: is required'],
      [
        { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [] }] },
        'mergeRules.rules.0.users: must have at least 1 items',
      ],
      [
        { type: 'rules', rules: [{ rule: 'allow_bypass', users: [stranger.admin.user.id] }] },
        `mergeRules.rules.0.users: "${stranger.admin.user.id}" is not a member of this organization`,
      ],
      [{ type: 'rules', rules: [{ rule: 'custom' }] }, 'mergeRules.rules.0.expression: is required'],
      [
        { type: 'rules', rules: [{ rule: 'custom', expression: 'changeRequest.subject ==' }] },
        expect.stringMatching(/^mergeRules\.rules\.0\.expression: does not parse: /),
      ],
      [
        { type: 'rules', rules: [{ rule: 'custom', expression: 'process.exit()' }] },
        'mergeRules.rules.0.expression: call expressions are not supported (use claims, literals, !, ==, ===, !=, !==, && and ||)',
      ],
      [
        { type: 'rules', rules: [{ rule: 'custom', expression: 'visitor.claims.a' }] },
        'mergeRules.rules.0.expression: visitor is unknown: merge rules read space, changeRequest, reviews, actor',
      ],
      [
        { type: 'rules', rules: [{ rule: 'custom', expression: 'x'.repeat(1025) }] },
        'mergeRules.rules.0.expression: must be at most 1024 characters',
      ],
      [
        { type: 'rules', rules: [{ rule: 'require_author_to_merge', users: [] }] },
        'mergeRules.rules.0.users: unknown field',
      ],
    ];
    for (const [mergeRules, message] of cases) {
      const res = await server.as(fx.admin.token).patch(`/v1/spaces/${space.id}`).send({ mergeRules }).expect(400);
      expect(res.body.error.message).toEqual(message);
    }
    const org = await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ mergeRules: { type: 'inherit' } })
      .expect(400);
    expect(org.body.error.message).toBe('mergeRules.type: must be one of rules, none');
    // nothing was stored
    expect((await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200)).body.mergeRules).toEqual({
      type: 'inherit',
    });
  });

  it('lets only admins change them: 401, 403 for other roles, 404 for another organization', async () => {
    const body = { mergeRules: REQUIRE_APPROVAL };
    await request(server.app).patch(`/v1/spaces/${space.id}`).send(body).expect(401);
    const reviewer = await addMember(server.ds, fx.org, 'review');
    await server.as(reviewer.token).patch(`/v1/spaces/${space.id}`).send(body).expect(403);
    await server.as(reviewer.token).patch(`/v1/orgs/${fx.org.id}`).send(body).expect(403);
    const other = await createOrg(server.ds);
    await server.as(other.admin.token).patch(`/v1/spaces/${space.id}`).send(body).expect(404);
    await server.as(other.admin.token).patch(`/v1/orgs/${fx.org.id}`).send(body).expect(404);
    expect((await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200)).body.mergeRules).toEqual({
      type: 'inherit',
    });
  });
});

function paragraph(text: string) {
  return {
    object: 'block',
    type: 'paragraph',
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
  };
}
