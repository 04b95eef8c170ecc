import { MigrationInterface, QueryRunner } from 'typeorm';

/** Translations (with the translation-run job columns, prefix `run`) and the source pages each has translated. */
export class CreateTranslations1795490000000 implements MigrationInterface {
  name = 'CreateTranslations1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "CREATE TABLE `translations` (`id` varchar(32) COLLATE \"utf8mb4_bin\" NOT NULL, `organizationId` varchar(32) COLLATE \"utf8mb4_bin\" NOT NULL, `sourceSpaceId` varchar(32) COLLATE \"utf8mb4_bin\" NOT NULL, `sourceLanguage` varchar(8) NOT NULL, `language` varchar(8) NOT NULL, `instructions` text NOT NULL, `resultSpaceId` varchar(32) COLLATE \"utf8mb4_bin\" NULL, `resultRevisionId` varchar(32) COLLATE \"utf8mb4_bin\" NULL, `runs` int UNSIGNED NOT NULL DEFAULT '0', `totalWords` int UNSIGNED NOT NULL DEFAULT '0', `totalPages` int UNSIGNED NOT NULL DEFAULT '0', `totalDuration` int UNSIGNED NOT NULL DEFAULT '0', `latestRunDuration` int UNSIGNED NOT NULL DEFAULT '0', `latestPages` int UNSIGNED NOT NULL DEFAULT '0', `latestWords` int UNSIGNED NOT NULL DEFAULT '0', `appliedGeneration` int UNSIGNED NOT NULL DEFAULT '0', `stagedGeneration` int UNSIGNED NULL, `createdById` varchar(32) COLLATE \"utf8mb4_bin\" NOT NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, `runGeneration` int UNSIGNED NOT NULL DEFAULT '0', `runRunId` varchar(64) NULL, `runRequestedAt` datetime(3) NULL, `runStartedAt` datetime(3) NULL, `runFinishedAt` datetime(3) NULL, `runProgressDone` int UNSIGNED NOT NULL DEFAULT '0', `runProgressTotal` int UNSIGNED NULL, `runErrorCode` varchar(64) NULL, `runErrorMessages` json NULL, `runRerunRequested` tinyint NOT NULL DEFAULT 0, INDEX `IDX_4787d16872a7b017d2fdcfb8c7` (`sourceSpaceId`), INDEX `IDX_24cbfa15fe018ae62df88e562e` (`runRequestedAt`), INDEX `IDX_a793461d4d839b178d5ee8485c` (`organizationId`, `createdAt`, `id`), PRIMARY KEY (`id`)) ENGINE=InnoDB",
    );
    await queryRunner.query(
      'CREATE TABLE `translation_pages` (`translationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `pageId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `sourceHash` char(40) NOT NULL, PRIMARY KEY (`translationId`, `pageId`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `translation_pages`');
    await queryRunner.query('DROP INDEX `IDX_a793461d4d839b178d5ee8485c` ON `translations`');
    await queryRunner.query('DROP INDEX `IDX_24cbfa15fe018ae62df88e562e` ON `translations`');
    await queryRunner.query('DROP INDEX `IDX_4787d16872a7b017d2fdcfb8c7` ON `translations`');
    await queryRunner.query('DROP TABLE `translations`');
  }
}
