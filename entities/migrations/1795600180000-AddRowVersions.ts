import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The version of each row whose answer carries an ETag, raised by every change: collections, change requests,
 * comments, sites, OpenAPI specs, and integrations (`rowVersion`: their `version` is the
 * published one, raised by a publish only).
 */
const COLUMNS: ReadonlyArray<[table: string, column: string]> = [
  ['collections', 'version'],
  ['change_requests', 'version'],
  ['comments', 'version'],
  ['sites', 'version'],
  ['openapi_specs', 'version'],
  ['integrations', 'rowVersion'],
];

export class AddRowVersions1795600180000 implements MigrationInterface {
  name = 'AddRowVersions1795600180000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of COLUMNS) {
      await queryRunner.query(`ALTER TABLE \`${table}\` ADD \`${column}\` int NOT NULL DEFAULT 1`);
      await queryRunner.query(`ALTER TABLE \`${table}\` ALTER COLUMN \`${column}\` DROP DEFAULT`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of COLUMNS)
      await queryRunner.query(`ALTER TABLE \`${table}\` DROP COLUMN \`${column}\``);
  }
}
