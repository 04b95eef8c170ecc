/**
 * Mail in tests: messages read back from the Mailpit the scripts start (its HTTP API, MAILPIT_URL), and SMTP servers
 * that misbehave on purpose (a recipient refused with a 5yz reply, a server that accepts the connection and never
 * answers), each on a free loopback port.
 */

import type { AddressInfo } from 'net';
import net from 'net';
import pino from 'pino';
import type { DataSource, FindOptionsWhere } from 'typeorm';
import { inviteUsersToOrganization } from '../../domain/invites/invites';
import { mailDeliveryJob } from '../../domain/invites/mail-job';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { MailMessage } from '../../entities/MailMessage';
import type { Organization } from '../../entities/Organization';
import type { User } from '../../entities/User';
import { type Config, loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { TemporalGateway } from '../../platform/temporal/gateway';
import { startServer, type TestServer } from './server';
import { privateTaskQueue, shortJobRetries, startWorker, type TestWorker } from './temporal';

const MAILPIT = process.env.MAILPIT_URL ?? 'http://127.0.0.1:8025';

/**
 * A test server and a worker of its own task queue, started before the file's tests and stopped after them, mailing
 * through the scripts' Mailpit (SMTP_URL): what a test of invitation mail runs against.
 */
export function useServerWithMailWorker(): TestServer {
  const server = {} as TestServer;
  let worker: TestWorker | undefined;
  beforeAll(async () => {
    const config = privateTaskQueue(shortJobRetries(loadConfig()));
    if (!config.mail.smtpUrl) throw new Error('run with the scripts’ environment: SMTP_URL names their Mailpit');
    Object.assign(server, await startServer(config));
    worker = await startWorker(server.ds, config);
  });
  afterAll(async () => {
    await worker?.stop();
    await server.close?.();
  });
  return server;
}

export interface ReceivedMail {
  id: string;
  messageId: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string[]>;
}

async function mailpit<T>(path: string): Promise<T> {
  const answer = await fetch(`${MAILPIT}/api/v1/${path}`);
  if (!answer.ok) throw new Error(`Mailpit ${path}: HTTP ${answer.status}`);
  return (await answer.json()) as T;
}

/** Every message Mailpit holds for `address`, oldest first, once at least `count` arrived (or the wait ran out). */
export async function mailTo(address: string, count = 1, timeoutMs = 20_000): Promise<ReceivedMail[]> {
  for (const start = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const found = await mailpit<{ messages: Array<{ ID: string }> }>(
      `search?query=${encodeURIComponent(`to:"${address}"`)}`,
    );
    if (found.messages.length >= count || Date.now() - start > timeoutMs) {
      const mails: ReceivedMail[] = [];
      for (const { ID } of found.messages.reverse()) {
        const m = await mailpit<{ MessageID: string; Subject: string; Text: string; HTML: string }>(`message/${ID}`);
        const headers = await mailpit<Record<string, string[]>>(`message/${ID}/headers`);
        mails.push({ id: ID, messageId: m.MessageID, subject: m.Subject, text: m.Text, html: m.HTML, headers });
      }
      return mails;
    }
  }
}

/** The first-token link of an invitation's plain-text part. */
export function firstTokenLink(mail: ReceivedMail): string {
  const link = /curl -X POST (\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no first-token link in: ${mail.text}`);
  return link;
}

/** The message row once its delivery ended. */
export async function deliveredMail(ds: DataSource, where: FindOptionsWhere<MailMessage>, timeoutMs = 30_000) {
  for (const start = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const mail = await ds.manager.findOneBy(MailMessage, where);
    if (mail?.delivery.finishedAt) return mail;
    if (Date.now() - start > timeoutMs)
      throw new Error(`mail ${JSON.stringify(where)} not delivered: ${JSON.stringify(mail)}`);
  }
}

/** The configuration with mail sent to `smtpUrl` (Mailpit's, or a misbehaving server's). */
export function withSmtp(config: Config, smtpUrl: string, timeoutMs = config.mail.timeoutMs): Config {
  return { ...config, mail: { ...config.mail, smtpUrl, timeoutMs } };
}

export interface FakeSmtp {
  url: string;
  /** Connections made so far. */
  connections: number;
  close(): Promise<void>;
}

/**
 * An SMTP server that refuses every recipient with `reply` (`550 5.1.1 no such user`), or, with `silent`, accepts
 * connections and never says anything.
 */
export async function fakeSmtp(behaviour: { reply: string } | { silent: true }): Promise<FakeSmtp> {
  const sockets = new Set<net.Socket>();
  const fake = { url: '', connections: 0, close: async () => {} } as FakeSmtp;
  const server = net.createServer((socket) => {
    fake.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if ('silent' in behaviour) return;
    socket.write('220 fake.test ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 fake.test\r\n');
        else if (line.startsWith('MAIL FROM')) socket.write('250 2.1.0 ok\r\n');
        else if (line.startsWith('RCPT TO')) socket.write(`${behaviour.reply}\r\n`);
        else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('503 5.5.1 bad sequence\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/**
 * Invites `email` into the organization as a request does (the message's run starts after the commit), through a
 * gateway of `config` (its task queue, its SMTP server); answers the message's row.
 */
export async function inviteByMail(
  ds: DataSource,
  config: Config,
  org: Organization,
  inviter: User,
  email: string,
): Promise<{ mail: MailMessage; workflowId: string; temporal: TemporalGateway }> {
  const temporal = new TemporalGateway(config);
  const logger = pino({ level: 'silent' });
  const { users } = await inTransaction({ ds, config, temporal, logger }, (db) =>
    inviteUsersToOrganization(db, config, org, inviter, { emails: [{ email, role: null }], sso: false }),
  );
  const mail = await ds.manager.findOneByOrFail(MailMessage, { userId: users[0], organizationId: org.id });
  return { mail, workflowId: jobWorkflowId(mailDeliveryJob, mail.id, 1), temporal };
}
