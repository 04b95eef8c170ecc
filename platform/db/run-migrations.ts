/**
 * Applies the pending migrations under a MySQL named lock (GET_LOCK), so that replicas or release jobs
 * starting together run them once: the second waits for the first, then finds nothing pending.
 */
import type { DataSource, Migration } from 'typeorm';

/** How long a run waits for another to finish before it gives up. */
const LOCK_WAIT_SECONDS = 600;

/** Named locks are server-wide: the name carries the database, so two databases on one server do not wait for each other. */
function lockName(ds: DataSource): string {
  return `docs-platform:migrations:${String(ds.options.database)}`.slice(0, 64);
}

export async function runMigrationsLocked(ds: DataSource): Promise<Migration[]> {
  // the lock belongs to one session: this runner's connection holds it while the migrations run on others
  const holder = ds.createQueryRunner();
  await holder.connect();
  const name = lockName(ds);
  try {
    const [{ got }] = await holder.query('SELECT GET_LOCK(?, ?) AS got', [name, LOCK_WAIT_SECONDS]);
    if (Number(got) !== 1)
      throw new Error(`another migration run has held the lock ${name} for ${LOCK_WAIT_SECONDS} s; is one stuck?`);
    try {
      return await ds.runMigrations({ transaction: 'each' });
    } finally {
      await holder.query('SELECT RELEASE_LOCK(?)', [name]);
    }
  } finally {
    await holder.release();
  }
}
