/** Mail delivery: a thin wrapper over domain/invites/mail.ts, with the SMTP sender of this worker's configuration. */
import { deliverMail } from '../domain/invites/mail';
import type { JobRef } from '../domain/jobs/contracts';
import { createMailSender } from '../platform/mail/smtp';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface MailActivities {
  /** Sends the message once, heartbeating; answers the server's reply. A 5yz reply fails for good, anything else is retried. */
  deliverMailMessage(ref: JobRef): Promise<string>;
}

export function createMailActivities(deps: ActivityDeps): MailActivities {
  const sender = createMailSender(deps.config.mail);
  return permanentFailures<MailActivities>({
    deliverMailMessage: (ref) =>
      heartbeating((live) => deliverMail({ ds: deps.ds, config: deps.config, sender, clock: deps.clock }, ref, live)),
  });
}
