import { MigrationInterface, QueryRunner } from 'typeorm';

/** Invitation mail: one row per message (the mail-delivery job's), and the first-token links they carry, hashed. */
export class CreateInvitationMail1795600100000 implements MigrationInterface {
  name = 'CreateInvitationMail1795600100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `invite_tokens` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `secretHash` char(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `userId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `createdAt` datetime(3) NOT NULL, `expiresAt` datetime(3) NOT NULL, `usedAt` datetime(3) NULL, UNIQUE INDEX `IDX_21665831a9220917e13959b11d` (`secretHash`), INDEX `IDX_bda143c647fb2ceb6450426f14` (`userId`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `mail_messages` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `userId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `recipient` varchar(320) NOT NULL, `template` varchar(32) NOT NULL, `params` json NOT NULL, `messageId` varchar(255) NOT NULL, `createdAt` datetime(3) NOT NULL, `sentAt` datetime(3) NULL, `lastReply` varchar(512) NULL, `deliveryGeneration` int UNSIGNED NOT NULL DEFAULT 0, `deliveryRunId` varchar(64) NULL, `deliveryRequestedAt` datetime(3) NULL, `deliveryStartedAt` datetime(3) NULL, `deliveryFinishedAt` datetime(3) NULL, `deliveryProgressDone` int UNSIGNED NOT NULL DEFAULT 0, `deliveryProgressTotal` int UNSIGNED NULL, `deliveryErrorCode` varchar(64) NULL, `deliveryErrorMessages` json NULL, `deliveryRerunRequested` tinyint NOT NULL DEFAULT 0, INDEX `IDX_ba5db096e4f8f8dcfccc211690` (`userId`), INDEX `IDX_6b2c1f0e45624834ca6a51596d` (`organizationId`, `createdAt`, `id`), INDEX `IDX_9e64c82c09d1be036456a97883` (`deliveryRequestedAt`), INDEX `IDX_e91438183fb71ee14aeab90525` (`deliveryFinishedAt`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `mail_messages`');
    await queryRunner.query('DROP TABLE `invite_tokens`');
  }
}
