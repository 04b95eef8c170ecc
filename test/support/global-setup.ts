/** Once per jest run: bring the test database to the latest migration. */
import 'reflect-metadata';
import { loadConfig } from '../../domain/config';
import { createDataSource } from '../../entities/data-source';

export default async function globalSetup(): Promise<void> {
  const ds = await createDataSource(loadConfig()).initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}
