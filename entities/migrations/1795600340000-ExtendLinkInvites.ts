import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Link invites to a space or a collection (with a level) beside those to the organization (with a role), who made
 * each, and the extensions that end one early: an expiry and a switch. Existing links stay links to the organization.
 */
export class ExtendLinkInvites1795600340000 implements MigrationInterface {
  name = 'ExtendLinkInvites1795600340000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `link_invites` ADD `targetKind` varchar(16) NOT NULL DEFAULT \'organization\', ADD `targetId` varchar(32) COLLATE "utf8mb4_bin" NULL, ADD `createdBy` varchar(32) COLLATE "utf8mb4_bin" NULL, ADD `expiresAt` datetime(3) NULL, ADD `disabled` tinyint NOT NULL DEFAULT 0',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `link_invites` DROP COLUMN `disabled`, DROP COLUMN `expiresAt`, DROP COLUMN `createdBy`, DROP COLUMN `targetId`, DROP COLUMN `targetKind`',
    );
  }
}
