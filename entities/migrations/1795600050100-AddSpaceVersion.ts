import { MigrationInterface, QueryRunner } from 'typeorm';

/** The version of a space's row, raised by every change: what its ETag is built from. */
export class AddSpaceVersion1795600050100 implements MigrationInterface {
  name = 'AddSpaceVersion1795600050100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `spaces` ADD `version` int NOT NULL DEFAULT 1');
    await queryRunner.query('ALTER TABLE `spaces` ALTER COLUMN `version` DROP DEFAULT');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `spaces` DROP COLUMN `version`');
  }
}
