/**
 * The mail-delivery workflow against misbehaving SMTP servers and the scripts' Mailpit: a refused recipient (a 5yz
 * reply) fails the message at once, naming the reply; a server that accepts the connection and never answers is
 * retried until the retries are spent, then recorded; a server away for a few seconds (retries shortened, so the
 * outage spans several of them) gets the message once it is back, exactly once.
 */

import type { AddressInfo } from 'net';
import net from 'net';
import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { createOrg, OrgFixture, unique } from '../factories';
import { deliveredMail, fakeSmtp, inviteByMail, mailTo, withSmtp } from '../support/mail';
import { privateTaskQueue, shortJobRetries, startWorker } from '../support/temporal';

let ds: DataSource;
let fx: OrgFixture;
const base = shortJobRetries(loadConfig());

beforeAll(async () => {
  ds = await createDataSource(base).initialize();
  fx = await createOrg(ds);
});
afterAll(() => ds.destroy());

/** Sends one invitation through a worker whose configuration names `smtpUrl`, and answers its row once ended. */
async function sendThrough(config: Config) {
  const worker = await startWorker(ds, config);
  try {
    const email = `${unique('mail')}@example.test`;
    const { mail, temporal } = await inviteByMail(ds, config, fx.org, fx.admin.user, email);
    await temporal.close();
    return { row: await deliveredMail(ds, { id: mail.id }, 60_000), email };
  } finally {
    await worker.stop();
  }
}

it('fails at once, naming the reply, when the server refuses the recipient', async () => {
  const refusing = await fakeSmtp({ reply: '550 5.1.1 no such mailbox' });
  try {
    const { row } = await sendThrough(privateTaskQueue(withSmtp(base, refusing.url)));
    expect(row.delivery.errorCode).toBe('MAIL_REJECTED');
    expect(row.delivery.errorMessages?.[0].message).toContain('550 5.1.1 no such mailbox');
    expect(row.lastReply).toBe('550 5.1.1 no such mailbox');
    expect(row.sentAt).toBeNull();
    expect(refusing.connections).toBe(1);
  } finally {
    await refusing.close();
  }
});

it('retries a server that never answers, then records it undelivered', async () => {
  const silent = await fakeSmtp({ silent: true });
  try {
    const { row } = await sendThrough(privateTaskQueue(withSmtp(base, silent.url, 300)));
    expect(row.delivery.errorCode).toBe('MAIL_UNDELIVERED');
    expect(row.lastReply).toMatch(/no answer from the mail server/);
    expect(row.delivery.progressDone).toBe(2);
    expect(silent.connections).toBe(2);
  } finally {
    await silent.close();
  }
});

it('delivers once the server is back, exactly once', async () => {
  // a port nothing listens on for now
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const mailpit = new URL(base.mail.smtpUrl);
  const config = privateTaskQueue(withSmtp(base, `smtp://127.0.0.1:${port}`, 2000));
  // retried every 500 ms at most for as long as the kind's budget: the outage spans several attempts
  config.jobs = { ...config.jobs, retry: { ...config.jobs.retry, maximumAttempts: 0, maximumIntervalMs: 500 } };
  const back = new Promise<net.Server>((resolve) =>
    setTimeout(() => {
      const forward = net.createServer((client) => {
        const upstream = net.connect(Number(mailpit.port), mailpit.hostname);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      forward.listen(port, '127.0.0.1', () => resolve(forward));
    }, 4000),
  );
  try {
    const { row, email } = await sendThrough(config);
    expect(row.delivery.errorCode).toBeNull();
    expect(row.sentAt).not.toBeNull();
    expect(row.delivery.progressDone).toBeGreaterThan(2);
    const mails = await mailTo(email, 1);
    expect(mails.map((m) => `<${m.messageId}>`)).toEqual([row.messageId]);
  } finally {
    const forward = await back;
    await new Promise<void>((resolve) => forward.close(() => resolve()));
  }
});
