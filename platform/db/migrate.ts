/** `npm run migrate`: applies pending migrations to the configured database, once however many run at the same time. */
import { loadDatabaseConfig } from '../config';
import { createDataSource } from './data-source';
import { runMigrationsLocked } from './run-migrations';

async function main(): Promise<void> {
  const ds = await createDataSource(loadDatabaseConfig()).initialize();
  const applied = await runMigrationsLocked(ds);
  for (const m of applied) process.stdout.write(`migrated ${m.name}\n`);
  await ds.destroy();
}

main().catch((err) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
