/** Once per jest run: bring the test database to the latest migration. */
import 'reflect-metadata';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { runMigrationsLocked } from '../../platform/db/run-migrations';

export default async function globalSetup(): Promise<void> {
  const ds = await createDataSource(loadConfig()).initialize();
  await runMigrationsLocked(ds);
  await ds.destroy();
}
