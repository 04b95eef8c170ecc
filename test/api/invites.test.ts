/**
 * Inviting people by e-mail against the real servers and the scripts' Mailpit: the people are added with their
 * roles, each receives one invitation (a plain-text and an HTML part, the message's own Message-ID) whose link issues
 * their first API token once; bad input, 401, 404 for another organization and 403 for a non-admin; without SMTP the
 * members are added and the answer says nobody was mailed; a name with line breaks adds no header.
 */
import { redactUrl } from '../../api/middleware/redact-url';
import { InviteToken } from '../../entities/InviteToken';
import { MailMessage } from '../../entities/MailMessage';
import { Member } from '../../entities/Member';
import { loadConfig } from '../../platform/config';
import { addMember, createOrg, unique } from '../factories';
import { deliveredMail, firstTokenLink, mailTo, useServerWithMailWorker } from '../support/mail';
import { startServer, TestServer } from '../support/server';

const server = useServerWithMailWorker();

const address = () => `${unique('invitee')}@example.test`;
const pathOf = (link: string) => new URL(link).pathname;

describe('POST /v1/orgs/{organizationId}/invites', () => {
  it('adds each person with their role and mails each an invitation whose link issues a first token once', async () => {
    const fx = await createOrg(server.ds);
    const [editor, guest] = [address(), address()];
    const answer = await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/invites`)
      .send({ emails: [{ email: editor, role: 'edit' }, guest.toUpperCase(), guest] })
      .expect(200);
    expect(answer.body).toEqual({ users: [expect.any(String), expect.any(String)], invited: 2, mailed: true });
    const [editorId, guestId] = answer.body.users;
    const roles = await server.ds.manager.findBy(Member, { organizationId: fx.org.id });
    expect(roles.find((m) => m.userId === editorId)?.role).toBe('edit');
    expect(roles.find((m) => m.userId === guestId)?.role).toBeNull();

    const row = await deliveredMail(server.ds, { userId: guestId });
    expect(row.sentAt).not.toBeNull();
    expect(row.delivery.errorCode).toBeNull();
    const [mail] = await mailTo(guest);
    expect(`<${mail.messageId}>`).toBe(row.messageId);
    expect(mail.subject).toBe(`${fx.admin.user.displayName} invited you to ${fx.org.title}`);
    expect(mail.text).toContain('as a guest');
    expect(mail.html).toContain(fx.org.title);
    const link = firstTokenLink(mail);
    expect(mail.html).toContain(link);
    // only the link's hash is stored
    const stored = await server.ds.manager.findOneByOrFail(InviteToken, { userId: guestId });
    expect(JSON.stringify(stored)).not.toContain(link.split('/').pop());

    const issued = await server.as('').post(pathOf(link)).expect(201);
    expect(issued.body).toMatchObject({ object: 'api-token', userId: guestId, organizationId: fx.org.id });
    const me = await server.as(issued.body.token).get('/v1/user').expect(200);
    expect(me.body.id).toBe(guestId);
    // single use
    await server.as('').post(pathOf(link)).expect(404);
    expect((await mailTo(editor))[0].text).toContain('as edit');
  });

  it('leaves someone already a member as they are, unmailed', async () => {
    const fx = await createOrg(server.ds);
    const member = await addMember(server.ds, fx.org, 'create');
    const answer = await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/invites`)
      .send({ emails: [member.user.email], role: 'read' })
      .expect(200);
    expect(answer.body).toEqual({ users: [], invited: 0, mailed: true });
    const row = await server.ds.manager.findOneByOrFail(Member, { organizationId: fx.org.id, userId: member.user.id });
    expect(row.role).toBe('create');
    expect(await server.ds.manager.countBy(MailMessage, { userId: member.user.id })).toBe(0);
  });

  it('refuses bad input, naming the field, and writes nothing', async () => {
    const fx = await createOrg(server.ds);
    const post = (body: object) => server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/invites`).send(body);
    expect((await post({ emails: [] }).expect(400)).body.error.message).toMatch(/^emails/);
    const injected = `${address()}\r\nBcc: victim@example.test`;
    expect((await post({ emails: [injected] }).expect(400)).body.error.message).toMatch(/^emails/);
    expect((await post({ emails: [address()], role: 'owner' }).expect(400)).body.error.message).toMatch(/^role/);
    expect((await post({ emails: [address()], teams: [] }).expect(400)).body.error.message).toMatch(/^teams/);
    expect(await server.ds.manager.countBy(Member, { organizationId: fx.org.id })).toBe(1);
  });

  it('answers 401 without a token, 404 for another organization and 403 below admin', async () => {
    const fx = await createOrg(server.ds);
    const other = await createOrg(server.ds);
    const editor = await addMember(server.ds, fx.org, 'edit');
    const body = { emails: [address()] };
    await server.as('').post(`/v1/orgs/${fx.org.id}/invites`).send(body).expect(401);
    await server.as(other.admin.token).post(`/v1/orgs/${fx.org.id}/invites`).send(body).expect(404);
    await server.as(editor.token).post(`/v1/orgs/${fx.org.id}/invites`).send(body).expect(403);
  });

  it('keeps a line break in a name out of the headers', async () => {
    const fx = await createOrg(server.ds, `Acme\r\nBcc: victim@example.test`);
    const person = address();
    await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/invites`)
      .send({ emails: [person] })
      .expect(200);
    const [mail] = await mailTo(person);
    expect(mail.subject).toBe(`${fx.admin.user.displayName} invited you to Acme Bcc: victim@example.test`);
    expect(Object.keys(mail.headers).map((h) => h.toLowerCase())).not.toContain('bcc');
    expect(await mailTo('victim@example.test', 1, 500)).toEqual([]);
  });
});

describe('the first-token link', () => {
  it('answers 404 once expired, and for an unknown secret', async () => {
    const fx = await createOrg(server.ds);
    const person = address();
    const { body } = await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/invites`)
      .send({ emails: [person] })
      .expect(200);
    const link = firstTokenLink((await mailTo(person))[0]);
    await server.ds.manager.update(InviteToken, { userId: body.users[0] }, { expiresAt: new Date(Date.now() - 1000) });
    await server.as('').post(pathOf(link)).expect(404);
    await server.as('').post('/v1/invite-tokens/dpi_unknown').expect(404);
  });
});

describe('without SMTP', () => {
  let bare: TestServer;
  beforeAll(async () => {
    const config = loadConfig();
    bare = await startServer({ mail: { ...config.mail, smtpUrl: '' } });
  });
  afterAll(() => bare.close());

  it('adds the people and says nobody was mailed', async () => {
    const fx = await createOrg(bare.ds);
    const answer = await bare
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/invites`)
      .send({ emails: [address()], role: 'read' })
      .expect(200);
    expect(answer.body).toEqual({ users: [expect.any(String)], invited: 1, mailed: false });
    expect(await bare.ds.manager.countBy(MailMessage, { organizationId: fx.org.id })).toBe(0);
    const members = await bare.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members`).expect(200);
    expect(members.body.items.map((m: { user: { id: string } }) => m.user.id)).toContain(answer.body.users[0]);
  });
});

describe('the request log', () => {
  it('shows no invitation link or link invite id, in the path as in the query', () => {
    expect(redactUrl('/v1/invite-tokens/dpi_secret?x=1')).toBe('/v1/invite-tokens/[REDACTED]?x=[REDACTED]');
    expect(redactUrl('/v1/orgs/o1/invites/abc')).toBe('/v1/orgs/o1/invites/[REDACTED]');
    expect(redactUrl('/v1/orgs/o1/link-invites/abc')).toBe('/v1/orgs/o1/link-invites/[REDACTED]');
    expect(redactUrl('/v1/orgs/o1/invites')).toBe('/v1/orgs/o1/invites');
  });
});
