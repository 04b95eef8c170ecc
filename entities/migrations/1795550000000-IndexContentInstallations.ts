import { MigrationInterface, QueryRunner } from 'typeorm';

/** Finds a space's or a site's integration installations (the space purge, deleting a site) without a scan. */
export class IndexContentInstallations1795550000000 implements MigrationInterface {
  name = 'IndexContentInstallations1795550000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX `IDX_ab0ed3825cf0dedc14f8d2957e` ON `integration_space_installations` (`spaceId`)',
    );
    await queryRunner.query(
      'CREATE INDEX `IDX_2bcc47bdcb3dd4b8c6ca2b2069` ON `integration_site_installations` (`siteId`)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_2bcc47bdcb3dd4b8c6ca2b2069` ON `integration_site_installations`');
    await queryRunner.query('DROP INDEX `IDX_ab0ed3825cf0dedc14f8d2957e` ON `integration_space_installations`');
  }
}
