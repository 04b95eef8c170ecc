/**
 * Runs the mail-delivery job through its paths, for record.ts: sent (the scripts' Mailpit), rejected (a server that
 * refuses the recipient with 550), undelivered (a server that never answers, until the retries are spent) and
 * cancelled while its attempt waits on that silent server. Each case runs on a worker of its own, whose configuration
 * names its SMTP server: `npm run record-histories -- mail-delivery v1` (with the scripts' SMTP_URL).
 */
import { unique } from '../../factories';
import { fakeSmtp, inviteByMail, withSmtp } from '../../support/mail';
import { privateTaskQueue, startWorker } from '../../support/temporal';
import type { Recorder } from './recorder';

export const recordMailDelivery: Recorder = async ({ ds, config, org, admin }) => {
  if (!config.mail.smtpUrl) throw new Error('record mail-delivery with SMTP_URL set (the scripts set their Mailpit)');
  const send = async (name: string, smtpUrl: string, cancel = false) => {
    const cfg = privateTaskQueue(withSmtp(config, smtpUrl, cancel ? 10_000 : 300));
    const worker = await startWorker(ds, cfg);
    try {
      const { workflowId, temporal } = await inviteByMail(ds, cfg, org, admin.user, `${unique(name)}@example.test`);
      const handle = (await temporal.getClient()).workflow.getHandle(workflowId);
      if (cancel) {
        await new Promise((r) => setTimeout(r, 1000));
        await handle.cancel();
      }
      await handle.result().catch(() => undefined);
      await temporal.close();
      return { name, workflowId };
    } finally {
      await worker.stop();
    }
  };
  const refusing = await fakeSmtp({ reply: '550 5.1.1 no such mailbox' });
  const silent = await fakeSmtp({ silent: true });
  try {
    return [
      await send('sent', config.mail.smtpUrl),
      await send('rejected', refusing.url),
      await send('undelivered', silent.url),
      await send('cancelled', silent.url, true),
    ];
  } finally {
    await refusing.close();
    await silent.close();
  }
};
