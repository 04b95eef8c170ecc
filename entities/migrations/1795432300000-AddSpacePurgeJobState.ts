import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Space purge moves onto the job machinery: the space row embeds the shared job columns with the
 * prefix `purge` (`purgeStartedAt` already exists: when the run started). A deleted space's purge is
 * requested at its deletion; one whose v1 workflow (`space-purge/<spaceId>`) was recorded started
 * gets the run id `v1`, so the reconciler does not start a second run for it.
 */
export class AddSpacePurgeJobState1795432300000 implements MigrationInterface {
  name = 'AddSpacePurgeJobState1795432300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `spaces` ADD `purgeGeneration` int UNSIGNED NOT NULL DEFAULT 0, ADD `purgeRunId` varchar(64) NULL, ADD `purgeRequestedAt` datetime(3) NULL, ADD `purgeFinishedAt` datetime(3) NULL, ADD `purgeProgressDone` int UNSIGNED NOT NULL DEFAULT 0, ADD `purgeProgressTotal` int UNSIGNED NULL, ADD `purgeErrorCode` varchar(64) NULL, ADD `purgeErrorMessages` json NULL, ADD `purgeRerunRequested` tinyint NOT NULL DEFAULT 0',
    );
    await queryRunner.query(
      "UPDATE `spaces` SET `purgeRequestedAt` = `deletedAt`, `purgeRunId` = IF(`purgeStartedAt` IS NULL, NULL, 'v1') WHERE `deletedAt` IS NOT NULL",
    );
    await queryRunner.query('CREATE INDEX `IDX_a87174a36eeedd54f934c6a065` ON `spaces` (`purgeRequestedAt`)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_a87174a36eeedd54f934c6a065` ON `spaces`');
    await queryRunner.query(
      'UPDATE `spaces` SET `purgeStartedAt` = IF(`purgeRunId` IS NULL, NULL, COALESCE(`purgeStartedAt`, `purgeRequestedAt`))',
    );
    await queryRunner.query(
      'ALTER TABLE `spaces` DROP COLUMN `purgeGeneration`, DROP COLUMN `purgeRunId`, DROP COLUMN `purgeRequestedAt`, DROP COLUMN `purgeFinishedAt`, DROP COLUMN `purgeProgressDone`, DROP COLUMN `purgeProgressTotal`, DROP COLUMN `purgeErrorCode`, DROP COLUMN `purgeErrorMessages`, DROP COLUMN `purgeRerunRequested`',
    );
  }
}
