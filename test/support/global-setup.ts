/** Once per jest run: bring the test database to the latest migration. */
import 'reflect-metadata';
import { loadConfig } from '../../domain/config';
import { createDataSource } from '../../entities/data-source';
import { runMigrationsLocked } from '../../entities/run-migrations';

export default async function globalSetup(): Promise<void> {
  const ds = await createDataSource(loadConfig()).initialize();
  await runMigrationsLocked(ds);
  await ds.destroy();
}
