import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenAPI specifications (slug unique per organization, the openapi-process job columns with the
 * prefix `process`) and their versions (one per run at most, blobs by key).
 */
export class CreateOpenAPISpecs1795440000000 implements MigrationInterface {
  name = 'CreateOpenAPISpecs1795440000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `openapi_specs` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `slug` varchar(100) COLLATE "utf8mb4_bin" NOT NULL, `sourceUrl` varchar(2048) NULL, `sourceTextKey` varchar(255) NULL, `visibility` varchar(16) NOT NULL DEFAULT \'private\', `lastVersionId` varchar(32) COLLATE "utf8mb4_bin" NULL, `lastProcessedAt` datetime(3) NULL, `lastProcessedErrorCount` int UNSIGNED NOT NULL DEFAULT \'0\', `createdById` varchar(32) COLLATE "utf8mb4_bin" NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, `processGeneration` int UNSIGNED NOT NULL DEFAULT \'0\', `processRunId` varchar(64) NULL, `processRequestedAt` datetime(3) NULL, `processStartedAt` datetime(3) NULL, `processFinishedAt` datetime(3) NULL, `processProgressDone` int UNSIGNED NOT NULL DEFAULT \'0\', `processProgressTotal` int UNSIGNED NULL, `processErrorCode` varchar(64) NULL, `processErrorMessages` json NULL, `processRerunRequested` tinyint NOT NULL DEFAULT 0, UNIQUE INDEX `IDX_08e0ae112853822c05d8755f10` (`organizationId`, `slug`), INDEX `IDX_a5f41fb02f37f2f9ffc44bf8f9` (`processRequestedAt`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `openapi_spec_versions` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `specId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `generation` int UNSIGNED NOT NULL, `sourceUrl` varchar(2048) NULL, `sourceTextKey` varchar(255) NULL, `filesystemKey` varchar(255) NOT NULL, `contentHash` char(64) NOT NULL, `createdAt` datetime(3) NOT NULL, UNIQUE INDEX `IDX_ecbbbbfa260067e6fa4b9a04e6` (`specId`, `generation`), INDEX `IDX_02bd7b55ba0fa7e5125b303333` (`specId`, `createdAt`, `id`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_02bd7b55ba0fa7e5125b303333` ON `openapi_spec_versions`');
    await queryRunner.query('DROP INDEX `IDX_ecbbbbfa260067e6fa4b9a04e6` ON `openapi_spec_versions`');
    await queryRunner.query('DROP TABLE `openapi_spec_versions`');
    await queryRunner.query('DROP INDEX `IDX_a5f41fb02f37f2f9ffc44bf8f9` ON `openapi_specs`');
    await queryRunner.query('DROP INDEX `IDX_08e0ae112853822c05d8755f10` ON `openapi_specs`');
    await queryRunner.query('DROP TABLE `openapi_specs`');
  }
}
