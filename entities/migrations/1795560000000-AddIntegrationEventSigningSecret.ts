import { MigrationInterface, QueryRunner } from 'typeorm';

/** The key an event's delivery is signed with, kept on the event: its installation may be gone by then (installation_deleted). */
export class AddIntegrationEventSigningSecret1795560000000 implements MigrationInterface {
  name = 'AddIntegrationEventSigningSecret1795560000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `integration_events` ADD `signingSecret` varchar(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `integration_events` DROP COLUMN `signingSecret`');
  }
}
