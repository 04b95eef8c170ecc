import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an installing organization granted, stored on its installation, so a republish that asks for more
 * scopes widens no installation's powers. Existing installations are given the scopes published now.
 */
export class AddInstallationGrantedScopes1795590000000 implements MigrationInterface {
  name = 'AddInstallationGrantedScopes1795590000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `integration_installations` ADD `grantedScopes` json NULL');
    await queryRunner.query(
      'UPDATE `integration_installations` n JOIN `integrations` i ON i.id = n.integrationId SET n.grantedScopes = i.scopes',
    );
    await queryRunner.query(
      "UPDATE `integration_installations` SET `grantedScopes` = '[]' WHERE `grantedScopes` IS NULL",
    );
    await queryRunner.query('ALTER TABLE `integration_installations` MODIFY `grantedScopes` json NOT NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `integration_installations` DROP COLUMN `grantedScopes`');
  }
}
