import { MigrationInterface, QueryRunner } from 'typeorm';

/** Import runs of `POST {content}/import`: one row per import, with the content-import job columns (prefix `process`). */
export class CreateImportRuns1795460000000 implements MigrationInterface {
  name = 'CreateImportRuns1795460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `import_runs` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `spaceId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `changeRequestId` varchar(32) COLLATE "utf8mb4_bin" NULL, `source` varchar(16) NOT NULL, `url` varchar(2048) NOT NULL, `createdById` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `revisionId` varchar(32) COLLATE "utf8mb4_bin" NULL, `importedResources` int UNSIGNED NOT NULL DEFAULT \'0\', `totalResources` int UNSIGNED NOT NULL DEFAULT \'0\', `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, `processGeneration` int UNSIGNED NOT NULL DEFAULT \'0\', `processRunId` varchar(64) NULL, `processRequestedAt` datetime(3) NULL, `processStartedAt` datetime(3) NULL, `processFinishedAt` datetime(3) NULL, `processProgressDone` int UNSIGNED NOT NULL DEFAULT \'0\', `processProgressTotal` int UNSIGNED NULL, `processErrorCode` varchar(64) NULL, `processErrorMessages` json NULL, `processRerunRequested` tinyint NOT NULL DEFAULT 0, INDEX `IDX_0fd332b5e42022dfddaae342f7` (`organizationId`, `createdAt`, `id`), INDEX `IDX_3e67135c8f4b4f3d1e6e751932` (`spaceId`, `changeRequestId`), INDEX `IDX_0697e0fa7b625b2fc4ff066ae0` (`processRequestedAt`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_0697e0fa7b625b2fc4ff066ae0` ON `import_runs`');
    await queryRunner.query('DROP INDEX `IDX_3e67135c8f4b4f3d1e6e751932` ON `import_runs`');
    await queryRunner.query('DROP INDEX `IDX_0fd332b5e42022dfddaae342f7` ON `import_runs`');
    await queryRunner.query('DROP TABLE `import_runs`');
  }
}
