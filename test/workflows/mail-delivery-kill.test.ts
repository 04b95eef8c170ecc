/**
 * A message's delivery survives its worker: Mailpit accepts the message, its answer is held on the way back, and the
 * worker is killed (`kill -9`) before it hears it; a new worker sends the message again, with the same Message-ID,
 * and the other invitations of the same request are sent too. Every message is delivered at least once, none is lost.
 * The worker runs as a child process from `dist/` (built by `npm test`) on a private task queue; between it and
 * Mailpit is a proxy in this process that reads the client's side of the SMTP dialogue.
 */

import type { AddressInfo } from 'net';
import net from 'net';
import { IsNull } from 'typeorm';
import { MailMessage } from '../../entities/MailMessage';
import { loadConfig } from '../../platform/config';
import { createOrg, unique } from '../factories';
import { deliveredMail, mailTo } from '../support/mail';
import { startServer, type TestServer } from '../support/server';
import { WorkerProcesses } from '../support/worker-process';

/**
 * Forwards SMTP to `target`; the first message whose data ends (`<CRLF>.<CRLF>` from the client) goes through, and
 * the server's answer to it is held: the server accepted the message, the client never hears so.
 */
class HeldAnswerProxy {
  private readonly listener = net.createServer((client) => this.accept(client));
  private readonly sockets = new Set<net.Socket>();
  private armed = true;
  /** The recipient of the message whose answer is held. */
  heldRecipient = '';
  private reachedResolve!: () => void;
  /** Resolves once a message was accepted with its answer held. */
  readonly reached = new Promise<void>((resolve) => {
    this.reachedResolve = resolve;
  });

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.listener.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.listener.address() as AddressInfo).port}`;
  }

  private accept(client: net.Socket): void {
    const server = net.connect(this.target.port, this.target.host);
    let tail = '';
    let dialogue = '';
    let holding = false;
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        server.destroy();
      });
    }
    client.on('data', (chunk) => {
      server.write(chunk);
      const text = chunk.toString('latin1');
      tail = (tail + text).slice(-5);
      if (dialogue.length < 4096) dialogue += text;
      if (this.armed && tail === '\r\n.\r\n') {
        this.armed = false;
        holding = true;
        this.heldRecipient = /RCPT TO:<([^>]+)>/i.exec(dialogue)?.[1] ?? '';
      }
    });
    server.on('data', (chunk) => {
      if (!holding) return void client.write(chunk);
      // the answer to the message's data: the server has it, the worker will never know
      this.reachedResolve();
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.listener.close(resolve));
  }
}

let server: TestServer;
let proxy: HeldAnswerProxy;
let workers: WorkerProcesses;

beforeAll(async () => {
  const config = loadConfig();
  const mailpit = new URL(config.mail.smtpUrl);
  proxy = new HeldAnswerProxy({ host: mailpit.hostname, port: Number(mailpit.port) });
  const smtpUrl = await proxy.start();
  server = await startServer({
    temporal: { ...config.temporal, taskQueue: unique('test-mail-') },
    mail: { ...config.mail, smtpUrl },
  });
  workers = new WorkerProcesses({
    MYSQL_DATABASE: server.config.mysql.database,
    TEMPORAL_TASK_QUEUE: server.config.temporal.taskQueue,
    SMTP_URL: smtpUrl,
  });
}, 60000);

afterAll(async () => {
  workers?.killAll();
  await proxy?.close();
  await server?.close();
});

it('kill -9 of the worker after the server accepted a message: sent again with its Message-ID, none lost', async () => {
  const fx = await createOrg(server.ds);
  const addresses = [1, 2, 3].map(() => `${unique('kill')}@example.test`);
  const first = workers.start();
  const invited = await server
    .as(fx.admin.token)
    .post(`/v1/orgs/${fx.org.id}/invites`)
    .send({ emails: addresses })
    .expect(200);
  expect(invited.body.mailed).toBe(true);

  await proxy.reached;
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const unsent = await server.ds.manager.countBy(MailMessage, { organizationId: fx.org.id, sentAt: IsNull() });
  expect(unsent).toBeGreaterThan(0);

  workers.start();
  for (const userId of invited.body.users) {
    const row = await deliveredMail(server.ds, { userId }, 90_000);
    expect(row.sentAt).not.toBeNull();
    expect(row.delivery.errorCode).toBeNull();
  }
  const rows = await server.ds.manager.findBy(MailMessage, { organizationId: fx.org.id });
  expect(rows.map((r) => r.recipient).sort()).toEqual([...addresses].sort());
  expect(addresses).toContain(proxy.heldRecipient);
  for (const row of rows) {
    // the message whose answer was lost was sent by both workers (at least once, as documented)
    const received = await mailTo(row.recipient, row.recipient === proxy.heldRecipient ? 2 : 1);
    expect(received.length).toBeGreaterThanOrEqual(row.recipient === proxy.heldRecipient ? 2 : 1);
    // every copy is the same message: a second one is recognisable by its Message-ID
    expect(new Set(received.map((m) => `<${m.messageId}>`))).toEqual(new Set([row.messageId]));
  }
}, 150000);
