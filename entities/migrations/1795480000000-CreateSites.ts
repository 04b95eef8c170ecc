import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Docs sites: sites (with their adaptive schema and default pointers), section groups, sections and
 * site spaces. Orders are 0..n-1 integers per level; a site's structure is written under its row's lock.
 */
export class CreateSites1795480000000 implements MigrationInterface {
  name = 'CreateSites1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `sites` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `organizationId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `type` varchar(16) NOT NULL, `title` varchar(128) NOT NULL, `hostname` varchar(512) CHARACTER SET "ascii" COLLATE "ascii_bin" NULL, `basename` varchar(100) NULL, `proxy` varchar(512) NULL, `visibility` varchar(16) NOT NULL, `published` tinyint NOT NULL, `adaptiveContentEnabled` tinyint NOT NULL, `agentsContext` varchar(16) NOT NULL, `adaptiveSchema` json NULL, `adaptiveSchemaUpdatedAt` datetime(3) NULL, `defaultSiteSectionId` varchar(32) COLLATE "utf8mb4_bin" NULL, `defaultSiteSpaceId` varchar(32) COLLATE "utf8mb4_bin" NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, UNIQUE INDEX `IDX_280818a56dcbb6cdc056408d79` (`hostname`), INDEX `IDX_b2988479293692f397cab77543` (`organizationId`, `createdAt`, `id`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `site_sections` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `siteId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `sectionGroupId` varchar(32) COLLATE "utf8mb4_bin" NULL, `title` varchar(128) NOT NULL, `description` varchar(256) NULL, `icon` varchar(50) NULL, `path` varchar(100) COLLATE "utf8mb4_bin" NOT NULL, `condition` varchar(1024) NULL, `defaultSiteSpaceId` varchar(32) COLLATE "utf8mb4_bin" NULL, `position` int UNSIGNED NOT NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, INDEX `IDX_42012b23905a0ead0aa3a71e02` (`siteId`, `sectionGroupId`, `position`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `site_section_groups` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `siteId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `title` varchar(100) NOT NULL, `icon` varchar(50) NULL, `position` int UNSIGNED NOT NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, INDEX `IDX_2877882972122fe4471783a431` (`siteId`, `position`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `site_spaces` (`id` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `siteId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `sectionId` varchar(32) COLLATE "utf8mb4_bin" NULL, `spaceId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, `path` varchar(100) COLLATE "utf8mb4_bin" NOT NULL, `condition` varchar(1024) NULL, `position` int UNSIGNED NOT NULL, `createdAt` datetime(3) NOT NULL, `updatedAt` datetime(3) NOT NULL, INDEX `IDX_138660c51ec66b36fc15394cd9` (`spaceId`), INDEX `IDX_ced8c60599ad76a1006ab62869` (`siteId`, `sectionId`, `position`), PRIMARY KEY (`id`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_ced8c60599ad76a1006ab62869` ON `site_spaces`');
    await queryRunner.query('DROP INDEX `IDX_138660c51ec66b36fc15394cd9` ON `site_spaces`');
    await queryRunner.query('DROP TABLE `site_spaces`');
    await queryRunner.query('DROP INDEX `IDX_2877882972122fe4471783a431` ON `site_section_groups`');
    await queryRunner.query('DROP TABLE `site_section_groups`');
    await queryRunner.query('DROP INDEX `IDX_42012b23905a0ead0aa3a71e02` ON `site_sections`');
    await queryRunner.query('DROP TABLE `site_sections`');
    await queryRunner.query('DROP INDEX `IDX_b2988479293692f397cab77543` ON `sites`');
    await queryRunner.query('DROP INDEX `IDX_280818a56dcbb6cdc056408d79` ON `sites`');
    await queryRunner.query('DROP TABLE `sites`');
  }
}
