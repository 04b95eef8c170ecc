/**
 * `npm run migration:generate -- <VerbThing>`: writes entities/migrations/<timestamp>-<VerbThing>.ts
 * with the SQL that brings the configured (migrated) database to the entities, and its reversal.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadDatabaseConfig } from '../config';
import { createDataSource } from './data-source';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('usage: generate-migration <VerbThing>');
  const ds = await createDataSource(loadDatabaseConfig()).initialize();
  await ds.runMigrations({ transaction: 'each' });
  const sql = await ds.driver.createSchemaBuilder().log();
  await ds.destroy();
  if (!sql.upQueries.length) {
    process.stdout.write('entities and database agree: no migration written\n');
    return;
  }
  const stamp = Date.now();
  const esc = (q: string) => q.replace(/\\/g, '\\\\').replace(/`/g, '\\`');
  const up = sql.upQueries.map((q) => `    await queryRunner.query(\`${esc(q.query)}\`);`).join('\n');
  const down = sql.downQueries
    .reverse()
    .map((q) => `    await queryRunner.query(\`${esc(q.query)}\`);`)
    .join('\n');
  const file = path.join(__dirname, '..', '..', 'entities', 'migrations', `${stamp}-${name}.ts`);
  fs.writeFileSync(
    file,
    `import { MigrationInterface, QueryRunner } from 'typeorm';\n\nexport class ${name}${stamp} implements MigrationInterface {\n  name = '${name}${stamp}';\n\n  public async up(queryRunner: QueryRunner): Promise<void> {\n${up}\n  }\n\n  public async down(queryRunner: QueryRunner): Promise<void> {\n${down}\n  }\n}\n`,
  );
  process.stdout.write(`wrote ${file}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
