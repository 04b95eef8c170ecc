/**
 * mail-delivery/<mailId>: sends one message over SMTP. Its one step is retried by the run's retry policy on what may
 * pass (a 4yz reply, no answer, no connection) until the kind's budget is spent, and fails at once on a 5yz reply;
 * runJob records the code (MAIL_REJECTED, MAIL_UNDELIVERED) and the reply on the row.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { MailActivities } from '../activities/mail';
import type { JobOutcome, MailDeliveryInput } from '../domain/jobs/contracts';
import { heartbeatingActivityOptions, runJob } from './job';

export async function mailDelivery(input: MailDeliveryInput): Promise<JobOutcome<{ reply: string }>> {
  const { run } = input;
  // one attempt is bounded by SMTP_TIMEOUT_MS at each stage; this leaves room for a slow server and a busy worker
  const { deliverMailMessage } = proxyActivities<MailActivities>(heartbeatingActivityOptions(run, '5 minutes'));
  return runJob(run, async () => ({ reply: await deliverMailMessage(run) }));
}
