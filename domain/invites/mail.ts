/**
 * Invitation mail: one row per message, written in the transaction of the invitation, and its one delivery. The
 * message asks for its `mail-delivery` run as it is written; the run starts after the commit (platform/db/after-commit.ts;
 * the reconciler starts what a crash lost). Delivery is at least once: a run that dies after the server accepted the
 * message, before the row says so, sends it again with the same Message-ID, so the copies are recognisable as one.
 */
import type { DataSource } from 'typeorm';
import { InviteToken } from '../../entities/InviteToken';
import { idleJobState } from '../../entities/JobState';
import { type InvitationMailParams, MailMessage } from '../../entities/MailMessage';
import type { Config } from '../../platform/config';
import { assertWorkTx, type WorkTx } from '../../platform/db/after-commit';
import { insertKeepingValues, inTransaction } from '../../platform/db/transactions';
import { type MailSender, SmtpFailure } from '../../platform/mail/smtp';
import { newId } from '../ids';
import { JOB_FAILURES, type JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { jobState } from '../jobs/job-kind';
import { lockCurrentJob } from '../jobs/job-lifecycle';
import { applyJobTicket } from '../jobs/job-start';
import { type Liveness, UNWATCHED } from '../jobs/liveness';
import { firstTokenUrl } from './first-token';
import { invitationText } from './invitation-mail';
import { mailDeliveryJob } from './mail-job';

/** The server refused the message for good (a 5yz reply): sending it again would be refused again. */
export const MAIL_REJECTED = 'MAIL_REJECTED';
/** No attempt got the message through within the kind's retry budget (4yz replies, no answer, no connection). */
export const MAIL_UNDELIVERED = 'MAIL_UNDELIVERED';

/** `<mail-<id>@<host of MAIL_FROM>>`: fixed when the message is written, sent by every attempt. */
export function messageIdFor(config: Config, mailId: string): string {
  const host = /@([^@\s>]+)>?$/.exec(config.mail.from)?.[1] ?? 'localhost';
  return `<mail-${mailId}@${host}>`;
}

/** Writes an invitation for `recipient` in the caller's transaction; it is sent once the transaction commits. */
export async function recordInvitationMail(
  db: WorkTx,
  config: Config,
  input: { organizationId: string; userId: string; recipient: string; params: InvitationMailParams },
  now: Date,
): Promise<MailMessage> {
  assertWorkTx(db);
  const id = newId();
  const mail = Object.assign(new MailMessage(), {
    id,
    organizationId: input.organizationId,
    userId: input.userId,
    recipient: input.recipient,
    template: 'invitation' as const,
    params: input.params,
    messageId: messageIdFor(config, id),
    createdAt: now,
    sentAt: null,
    lastReply: null,
    // a message asks for its one run (generation 1) as it is written
    delivery: Object.assign(idleJobState(), { generation: 1, requestedAt: now }),
  });
  await insertKeepingValues(db, MailMessage, mail);
  const { temporal, logger } = db.services;
  db.afterCommit(() =>
    applyJobTicket(
      temporal,
      db.connection.manager,
      { kind: mailDeliveryJob, row: mail, start: true, superseded: null },
      logger,
    ),
  );
  return mail;
}

export interface MailDeliveryDeps {
  ds: DataSource;
  config: Config;
  /** null: SMTP_URL is not set where the worker runs */
  sender: MailSender | null;
  clock: () => Date;
}

/** Counts the attempt on the row before it is made, and reads what it sends; null once the message was sent. */
async function beginAttempt(deps: MailDeliveryDeps, ref: JobRef): Promise<MailMessage | null> {
  return inTransaction(deps.ds, async (db) => {
    const mail = await lockCurrentJob(db, mailDeliveryJob, ref);
    if (mail.sentAt) return null;
    const delivery = { ...jobState(mailDeliveryJob, mail), progressDone: mail.delivery.progressDone + 1 };
    await db.update(MailMessage, { id: mail.id }, { delivery });
    return mail;
  });
}

async function recordReply(deps: MailDeliveryDeps, ref: JobRef, reply: string, sent: boolean): Promise<void> {
  await inTransaction(deps.ds, async (db) => {
    const mail = await lockCurrentJob(db, mailDeliveryJob, ref);
    if (mail.sentAt) return;
    await db.update(
      MailMessage,
      { id: mail.id },
      { lastReply: reply.slice(0, 512), ...(sent ? { sentAt: deps.clock() } : {}) },
    );
  });
}

/**
 * Sends the message once, as RFC 5321's reply classes say: 2yz sent; 5yz a permanent MAIL_REJECTED naming the reply;
 * 4yz, a network error or a silent server a retryable MAIL_UNDELIVERED, which the run retries within the kind's
 * budget. A message already sent (a retried step after a lost answer) is not sent again.
 */
export async function deliverMail(deps: MailDeliveryDeps, ref: JobRef, live: Liveness = UNWATCHED): Promise<string> {
  const mail = await beginAttempt(deps, ref);
  if (!mail) return (await deps.ds.manager.findOneByOrFail(MailMessage, { id: ref.resourceId })).lastReply ?? '250';
  if (!deps.sender)
    throw new JobError(MAIL_UNDELIVERED, 'no SMTP_URL is configured where the worker runs', undefined, {
      retryable: true,
    });
  const link = await deps.ds.manager.findOneBy(InviteToken, { id: mail.params.inviteTokenId });
  if (!link) throw new JobError(JOB_FAILURES.superseded, `the invitation of mail ${mail.id} was withdrawn`);
  const words = invitationText(mail.params, firstTokenUrl(deps.config, link.id), link.expiresAt);
  live.heartbeat({ done: mail.delivery.progressDone + 1 });
  try {
    const reply = await deps.sender.send({
      from: deps.config.mail.from,
      to: mail.recipient,
      messageId: mail.messageId,
      ...words,
    });
    await recordReply(deps, ref, reply, true);
    return reply;
  } catch (err) {
    if (!(err instanceof SmtpFailure)) throw err;
    await recordReply(deps, ref, err.reply ?? err.message, false);
    throw new JobError(err.permanent ? MAIL_REJECTED : MAIL_UNDELIVERED, err.message, undefined, {
      retryable: !err.permanent,
    });
  }
}
