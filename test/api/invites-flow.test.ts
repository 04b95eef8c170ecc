/**
 * Inviting people, end to end, as a script would: an admin invites an address as a guest and gives them `edit` on one
 * space; the invitation arrives in the scripts' Mailpit; its link issues a token once; with it the person edits that
 * space and reaches nothing else. A second person joins through an invite link to a collection, with its level and
 * no more.
 */
import { createOrg, createUser, unique } from '../factories';
import { firstTokenLink, mailTo, useServerWithMailWorker } from '../support/mail';

const server = useServerWithMailWorker();

it('invites a guest by e-mail to edit one space, and lets a second person join a collection by link', async () => {
  const fx = await createOrg(server.ds);
  const admin = server.as(fx.admin.token);
  const collection = (await admin.post(`/v1/orgs/${fx.org.id}/collections`).send({ title: 'Guides' }).expect(201)).body;
  const space = (await admin.post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'Handbook' }).expect(201)).body;
  const inCollection = (
    await admin.post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'Setup', parent: collection.id }).expect(201)
  ).body;

  // 1. the admin invites an address as a guest
  const address = `${unique('guest')}@example.test`;
  const invited = await admin
    .post(`/v1/orgs/${fx.org.id}/invites`)
    .send({ emails: [address] })
    .expect(200);
  expect(invited.body).toEqual({ users: [expect.any(String)], invited: 1, mailed: true });
  const guestId = invited.body.users[0];

  // 2. and gives them `edit` on one space
  await admin.patch(`/v1/spaces/${space.id}/permissions/users/${guestId}`).send({ role: 'edit' }).expect(204);

  // 3. the invitation arrives
  const [mail] = await mailTo(address);
  expect(mail.subject).toBe(`${fx.admin.user.displayName} invited you to ${fx.org.title}`);

  // 4. its link issues a token once
  const link = new URL(firstTokenLink(mail)).pathname;
  const issued = await server.as('').post(link).expect(201);
  expect(issued.body).toMatchObject({ userId: guestId, organizationId: fx.org.id, token: expect.any(String) });
  await server.as('').post(link).expect(404);

  // 5. with it the person edits that space, and nothing else
  const guest = server.as(issued.body.token);
  const page = await guest
    .post(`/v1/spaces/${space.id}/content/pages`)
    .send({ title: 'Written by the guest', markdown: 'Hello.' })
    .expect(201);
  expect(page.body.title).toBe('Written by the guest');
  expect((await guest.get(`/v1/spaces/${space.id}`).expect(200)).body.permissions).toMatchObject({
    edit: true,
    admin: false,
  });
  await guest.get(`/v1/spaces/${inCollection.id}`).expect(404);
  await guest.get(`/v1/collections/${collection.id}`).expect(404);
  await guest.patch(`/v1/spaces/${space.id}`).send({ title: 'Renamed' }).expect(403);
  await guest.post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'Mine' }).expect(403);
  await guest.get(`/v1/orgs/${fx.org.id}/members`).expect(403);
  await guest.post(`/v1/orgs/${fx.org.id}/link-invites`).send({ role: 'admin' }).expect(403);
  const visible = await guest.get(`/v1/orgs/${fx.org.id}/spaces`).expect(200);
  expect(visible.body.items.map((s: { id: string }) => s.id)).toEqual([space.id]);

  // 6. a second person joins through a link to the collection, with its level and no more
  const invite = (
    await admin
      .post(`/v1/orgs/${fx.org.id}/link-invites`)
      .send({ level: 'comment', collection: collection.id })
      .expect(201)
  ).body;
  const second = await createUser(server.ds);
  const joiner = server.as(second.token);
  await joiner.get(`/v1/spaces/${inCollection.id}`).expect(404);
  await joiner.post(`/v1/orgs/${fx.org.id}/invites/${invite.id}`).expect(200);
  expect((await joiner.get(`/v1/spaces/${inCollection.id}`).expect(200)).body.permissions).toMatchObject({
    comment: true,
    edit: false,
  });
  await joiner
    .post(`/v1/spaces/${inCollection.id}/content/pages`)
    .send({ title: 'Not allowed', markdown: 'No.' })
    .expect(403);
  await joiner.get(`/v1/spaces/${space.id}`).expect(404);
  await joiner.get(`/v1/orgs/${fx.org.id}/members`).expect(403);
});
