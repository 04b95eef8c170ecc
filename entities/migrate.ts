/** `npm run migrate`: applies pending migrations to the configured database. */
import { loadDatabaseConfig } from '../domain/config';
import { createDataSource } from './data-source';

async function main(): Promise<void> {
  const ds = await createDataSource(loadDatabaseConfig()).initialize();
  const applied = await ds.runMigrations({ transaction: 'each' });
  for (const m of applied) process.stdout.write(`migrated ${m.name}\n`);
  await ds.destroy();
}

main().catch((err) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
