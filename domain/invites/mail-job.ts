/**
 * The mail-delivery job kind: each message asks for one run on its own row as it is written (mail.ts), and the
 * `mailDelivery` workflow sends it under `mail-delivery/<mailId>`. Its retention removes messages whose delivery
 * ended long ago, and first-token links that expired.
 */
import { IsNull, LessThan, Not } from 'typeorm';
import { InviteToken } from '../../entities/InviteToken';
import { MailMessage } from '../../entities/MailMessage';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import { JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';

/** A message's status: sent (the server answered 250), failed, or pending (a run is sending it, or will). */
export const MAIL_STATUSES = ['sent', 'failed', 'pending'] as const;

async function expireMail(db: Db, config: Config, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - config.mail.retentionSeconds * 1000);
  const messages = await db.delete(MailMessage, { delivery: { finishedAt: LessThan(cutoff) } });
  const links = await db.delete(InviteToken, { expiresAt: LessThan(now) });
  const used = await db.delete(InviteToken, { usedAt: Not(IsNull()), createdAt: LessThan(cutoff) });
  return (messages.affected ?? 0) + (links.affected ?? 0) + (used.affected ?? 0);
}

export const mailDeliveryJob = defineJobKind({
  name: JOB_KIND_NAMES.mailDelivery,
  workflow: 'mailDelivery',
  entity: MailMessage,
  state: 'delivery',
  input: (mail: MailMessage) => ({ mailId: mail.id, organizationId: mail.organizationId }),
  spaceId: () => null,
  // the person the mail is for
  askedAbout: ['userId'],
  // a message is sent once (mail-delivery/<mailId>), like an integration event: the repair pass's new generation of
  // a lost run reuses the id once the earlier run closed
  policy: 'single-run',
  // attempts made, with no total: a retry happens only after a transient failure
  progressUnit: 'attempts',
  publicStatus: (state): (typeof MAIL_STATUSES)[number] => {
    const status = jobStatus(state);
    return status === 'succeeded' ? 'sent' : status === 'failed' ? 'failed' : 'pending';
  },
  // nobody asks for an invitation again: a lost run is run again (the Message-ID stays, so a second copy is recognisable)
  onLostRun: 'request-again',
  // transient failures (4yz replies, no answer, a refused connection) are retried this long: a mail server restarted
  // or briefly overloaded is waited for, one gone for good fails the message with the last failure's code
  retryBudgetMs: 60 * 60 * 1000,
  retention: {
    describe:
      'messages whose delivery ended before MAIL_RETENTION_SECONDS; first-token links once expired, or used before it',
    expire: expireMail,
  },
});
