/**
 * Rotation of INTEGRATION_SECRETS_KEY (`cli secrets rotate`, docs/cli.md): every integration's stored
 * secrets that an older key of the ring opens are encrypted again under the first key, one row per
 * transaction (re-read under a lock, so a publish in between is not overwritten). Once it reports no
 * unreadable row, the older keys can leave the ring.
 */
import { type DataSource, IsNull, MoreThan, Not } from 'typeorm';
import { Integration } from '../../entities/Integration';
import { type Db, inTransaction } from '../../platform/db/transactions';
import { encryptSecrets, openSecrets } from './secrets';

type SecretsConfig = { integrations: { secretsKeys: string[] } };

const BATCH = 100;

export interface RotationReport {
  /** Rows encrypted again under the first key. */
  reencrypted: number;
  /** Rows already under the first key. */
  current: number;
  /** Integrations whose secrets no key of the ring opens: they stay as they are. */
  unreadable: string[];
}

/** Re-encrypts one row if an older key opened it; answers what it found. */
async function rotateOne(db: Db, config: SecretsConfig, id: string): Promise<keyof RotationReport | null> {
  const row = await db.findOne(Integration, {
    where: { id },
    select: { id: true, secretsCiphertext: true },
    lock: { mode: 'pessimistic_write' },
  });
  if (!row?.secretsCiphertext) return null; // removed or emptied meanwhile
  let opened: ReturnType<typeof openSecrets>;
  try {
    opened = openSecrets(config, row);
  } catch {
    return 'unreadable';
  }
  if (opened.keyIndex === 0) return 'current';
  await db.update(Integration, { id }, { secretsCiphertext: encryptSecrets(config, id, opened.secrets) });
  return 'reencrypted';
}

export async function rotateIntegrationSecrets(ds: DataSource, config: SecretsConfig): Promise<RotationReport> {
  const report: RotationReport = { reencrypted: 0, current: 0, unreadable: [] };
  let after = '';
  for (;;) {
    const ids = await ds.manager.find(Integration, {
      where: { id: MoreThan(after), secretsCiphertext: Not(IsNull()) },
      select: { id: true },
      order: { id: 'ASC' },
      take: BATCH,
    });
    for (const { id } of ids) {
      const outcome = await inTransaction(ds, (db) => rotateOne(db, config, id));
      if (outcome === 'unreadable') report.unreadable.push(id);
      else if (outcome) report[outcome] += 1;
    }
    if (ids.length < BATCH) return report;
    after = ids[ids.length - 1].id;
  }
}
