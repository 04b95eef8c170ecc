import { MigrationInterface, QueryRunner } from 'typeorm';

/** PDF exports of change requests: one row per change request, revision and options, with the pdf-export job columns (prefix `render`). */
export class CreatePdfExports1795450000000 implements MigrationInterface {
  name = 'CreatePdfExports1795450000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `pdf_exports` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `spaceId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `changeRequestId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `revisionId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `pageId` varchar(32) COLLATE "utf8mb4_bin" NULL, `only` tinyint NOT NULL DEFAULT 0, `fileKey` varchar(255) NULL, `filePages` int UNSIGNED NULL, `fileBytes` int UNSIGNED NULL, `createdAt` datetime(3) NOT NULL, `lastRequestedAt` datetime(3) NOT NULL, `renderGeneration` int UNSIGNED NOT NULL DEFAULT \'0\', `renderRunId` varchar(64) NULL, `renderRequestedAt` datetime(3) NULL, `renderStartedAt` datetime(3) NULL, `renderFinishedAt` datetime(3) NULL, `renderProgressDone` int UNSIGNED NOT NULL DEFAULT \'0\', `renderProgressTotal` int UNSIGNED NULL, `renderErrorCode` varchar(64) NULL, `renderErrorMessages` json NULL, `renderRerunRequested` tinyint NOT NULL DEFAULT 0, INDEX `IDX_c4f2dc33bc7baf73e0ae5f3833` (`lastRequestedAt`), INDEX `IDX_353959a8306115e669b6144b75` (`renderRequestedAt`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_353959a8306115e669b6144b75` ON `pdf_exports`');
    await queryRunner.query('DROP INDEX `IDX_c4f2dc33bc7baf73e0ae5f3833` ON `pdf_exports`');
    await queryRunner.query('DROP TABLE `pdf_exports`');
  }
}
