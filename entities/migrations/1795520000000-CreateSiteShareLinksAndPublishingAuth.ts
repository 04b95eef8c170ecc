import { MigrationInterface, QueryRunner } from 'typeorm';

/** Share links of sites (their keys open a `share-link` site to readers) and sites' visitor token signing keys. */
export class CreateSiteShareLinksAndPublishingAuth1795520000000 implements MigrationInterface {
  name = 'CreateSiteShareLinksAndPublishingAuth1795520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `site_publishing_auth` (`siteId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `privateKey` varchar(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, PRIMARY KEY (`siteId`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `site_share_links` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `siteId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `name` varchar(50) NOT NULL, `key` varchar(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, `active` tinyint NOT NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, INDEX `IDX_ff92ade4ca9541b111ade78500` (`siteId`, `createdAt`, `id`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_ff92ade4ca9541b111ade78500` ON `site_share_links`');
    await queryRunner.query('DROP TABLE `site_share_links`');
    await queryRunner.query('DROP TABLE `site_publishing_auth`');
  }
}
