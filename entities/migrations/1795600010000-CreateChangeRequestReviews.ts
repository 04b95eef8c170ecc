import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reviews of change requests and the reviews asked of users, a change request's description, and the merge rules
 * stored on organizations (their default) and spaces (null: the organization's, or none for an organization).
 */
export class CreateChangeRequestReviews1795600010000 implements MigrationInterface {
  name = 'CreateChangeRequestReviews1795600010000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `change_request_reviews` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `spaceId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `changeRequestId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `reviewerId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `requestedById` varchar(32) COLLATE "utf8mb4_bin" NULL, `status` varchar(24) NOT NULL, `revisionId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `commentId` varchar(32) COLLATE "utf8mb4_bin" NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, INDEX `IDX_e1749fcda5858bd7d0acbfcbc5` (`changeRequestId`, `createdAt`, `id`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `change_request_requested_reviewers` (`changeRequestId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `userId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `requestedById` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `revisionId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `createdAt` datetime(3) NOT NULL, INDEX `IDX_b66cb5016f61881b8a2ebe1037` (`changeRequestId`, `createdAt`, `userId`), PRIMARY KEY (`changeRequestId`, `userId`)) ENGINE=InnoDB',
    );
    await queryRunner.query('ALTER TABLE `change_requests` ADD `description` mediumtext NULL');
    await queryRunner.query('ALTER TABLE `organizations` ADD `mergeRules` json NULL');
    await queryRunner.query('ALTER TABLE `spaces` ADD `mergeRules` json NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `spaces` DROP COLUMN `mergeRules`');
    await queryRunner.query('ALTER TABLE `organizations` DROP COLUMN `mergeRules`');
    await queryRunner.query('ALTER TABLE `change_requests` DROP COLUMN `description`');
    await queryRunner.query('DROP TABLE `change_request_requested_reviewers`');
    await queryRunner.query('DROP TABLE `change_request_reviews`');
  }
}
