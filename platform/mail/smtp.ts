/**
 * Sending one message over SMTP (nodemailer), and what its failure means by RFC 5321's reply classes: a 5yz reply is
 * permanent (the same message will be refused again), a 4yz reply, a network error or a silent server may pass. The
 * transport opens a connection per message, bounded by SMTP_TIMEOUT_MS at each stage.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID header, angle brackets included: the same for every attempt of one message. */
  messageId: string;
}

/** Why a message was not sent: `reply` is the server's (`550 5.1.1 …`), null when none came. */
export class SmtpFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly reply: string | null,
  ) {
    super(message);
  }
}

export interface MailSender {
  /** Sends the message once; resolves with the server's final reply (`250 …`), throws an SmtpFailure. */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

interface NodemailerError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

/** RFC 5321 §4.2.1: the first digit of a reply says whether repeating the same command can succeed. */
export function smtpFailureOf(err: unknown): SmtpFailure {
  const e = err as NodemailerError;
  const reply = e.response ? e.response.replace(/\s+/g, ' ').trim().slice(0, 400) : null;
  if (typeof e.responseCode === 'number') {
    const during = e.command ? ` (after ${e.command})` : '';
    return new SmtpFailure(`the server answered ${reply ?? e.responseCode}${during}`, e.responseCode >= 500, reply);
  }
  // nodemailer's own refusals of the message itself (no recipient, a malformed address) fail again on any retry
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE')
    return new SmtpFailure(`the message was refused before sending: ${e.message}`, true, null);
  // no reply: a refused or reset connection, a silent server, a DNS or TLS failure; the next attempt may pass
  return new SmtpFailure(`no answer from the mail server: ${e.code ?? 'error'} ${e.message}`.trim(), false, null);
}

/** A sender for SMTP_URL, or null when none is configured (nothing is mailed). */
export function createMailSender(mail: Config['mail']): MailSender | null {
  if (!mail.smtpUrl) return null;
  const transport = nodemailer.createTransport({
    url: mail.smtpUrl,
    requireTLS: mail.requireTls,
    tls: { rejectUnauthorized: mail.tlsVerifyServer, ...(mail.tlsCa ? { ca: mail.tlsCa } : {}) },
    connectionTimeout: mail.timeoutMs,
    greetingTimeout: mail.timeoutMs,
    socketTimeout: mail.timeoutMs,
    // the message is ours: never read a file or URL named in it
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({ ...message, headers: { 'Auto-Submitted': 'auto-generated' } });
        return String(info.response ?? '250');
      } catch (err) {
        throw smtpFailureOf(err);
      }
    },
    close: () => transport.close(),
  };
}
