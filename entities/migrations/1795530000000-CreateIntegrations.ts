import { MigrationInterface, QueryRunner } from 'typeorm';

/** Integrations, their installations on organizations, spaces and sites, their events, and integration tokens. */
export class CreateIntegrations1795530000000 implements MigrationInterface {
  name = 'CreateIntegrations1795530000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`integrations\` (\`id\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`name\` varchar(100) COLLATE "utf8mb4_bin" NOT NULL, \`ownerOrganizationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`botUserId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`version\` int UNSIGNED NOT NULL, \`runtime\` varchar(4) NOT NULL DEFAULT 'v1', \`title\` varchar(30) NOT NULL, \`description\` varchar(400) NOT NULL, \`summary\` text NOT NULL, \`visibility\` varchar(16) NOT NULL, \`target\` varchar(16) NOT NULL, \`verified\` tinyint NOT NULL DEFAULT 0, \`scopes\` json NOT NULL, \`categories\` json NOT NULL, \`blocks\` json NOT NULL, \`contentSources\` json NOT NULL, \`externalLinks\` json NOT NULL, \`configurations\` json NOT NULL, \`contentSecurityPolicy\` text NULL, \`scriptKey\` varchar(255) NOT NULL, \`iconKey\` varchar(255) NULL, \`previewImageKeys\` json NOT NULL, \`secretsCiphertext\` text NULL, \`signingSecret\` varchar(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, \`devTunnelUrl\` varchar(256) NULL, \`devAll\` tinyint NOT NULL DEFAULT 0, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, \`deletedAt\` datetime(3) NULL, UNIQUE INDEX \`IDX_4f27d3a6f2315710a44f7a6a17\` (\`name\`), INDEX \`IDX_66f12157df41be40b0fd0a47ef\` (\`ownerOrganizationId\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`integration_events\` (\`id\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`integrationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`installationId\` varchar(32) COLLATE "utf8mb4_bin" NULL, \`organizationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`spaceId\` varchar(32) COLLATE "utf8mb4_bin" NULL, \`siteId\` varchar(32) COLLATE "utf8mb4_bin" NULL, \`type\` varchar(64) NOT NULL, \`payload\` json NOT NULL, \`status\` varchar(16) NOT NULL, \`endpointUrl\` varchar(256) NULL, \`trace\` json NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`dispatchGeneration\` int UNSIGNED NOT NULL DEFAULT '0', \`dispatchRunId\` varchar(64) NULL, \`dispatchRequestedAt\` datetime(3) NULL, \`dispatchStartedAt\` datetime(3) NULL, \`dispatchFinishedAt\` datetime(3) NULL, \`dispatchProgressDone\` int UNSIGNED NOT NULL DEFAULT '0', \`dispatchProgressTotal\` int UNSIGNED NULL, \`dispatchErrorCode\` varchar(64) NULL, \`dispatchErrorMessages\` json NULL, \`dispatchRerunRequested\` tinyint NOT NULL DEFAULT 0, INDEX \`IDX_6bf82e69198c99120fda4f6d97\` (\`installationId\`), INDEX \`IDX_00b59e67be9bbe4514a4c9cfca\` (\`integrationId\`, \`createdAt\`, \`id\`), INDEX \`IDX_bf88939f05deac6e4b7dc12213\` (\`dispatchRequestedAt\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`integration_installations\` (\`id\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`integrationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`organizationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`status\` varchar(16) NOT NULL, \`spaceSelection\` varchar(16) NOT NULL DEFAULT 'all', \`siteSelection\` varchar(16) NOT NULL DEFAULT 'all', \`configuration\` json NOT NULL, \`externalIds\` json NOT NULL, \`signingSecret\` varchar(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, \`createdById\` varchar(32) COLLATE "utf8mb4_bin" NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, INDEX \`IDX_1872c359c318669676e18e6a1c\` (\`organizationId\`), INDEX \`IDX_7c3e3205a65bda99cfa29a8f7d\` (\`integrationId\`, \`createdAt\`, \`id\`), UNIQUE INDEX \`IDX_3091c98fe41e177f54f44d6ba9\` (\`integrationId\`, \`organizationId\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`integration_site_installations\` (\`installationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`siteId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`integrationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`organizationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`status\` varchar(16) NOT NULL, \`configuration\` json NOT NULL, \`externalIds\` json NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, INDEX \`IDX_164d8d1bece52a450776ec3124\` (\`organizationId\`), INDEX \`IDX_0bfe7eabe536155c419dbdf4f3\` (\`integrationId\`, \`createdAt\`, \`siteId\`), PRIMARY KEY (\`installationId\`, \`siteId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`integration_space_installations\` (\`installationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`spaceId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`integrationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`organizationId\` varchar(32) COLLATE "utf8mb4_bin" NOT NULL, \`status\` varchar(16) NOT NULL, \`configuration\` json NOT NULL, \`externalIds\` json NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, INDEX \`IDX_72c6120b27bddf0368f28f130b\` (\`organizationId\`), INDEX \`IDX_7d37378c44f33d50e7e2268396\` (\`integrationId\`, \`createdAt\`, \`spaceId\`), PRIMARY KEY (\`installationId\`, \`spaceId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(`ALTER TABLE \`api_tokens\` ADD \`integrationId\` varchar(32) COLLATE "utf8mb4_bin" NULL`);
    await queryRunner.query(`ALTER TABLE \`api_tokens\` ADD \`installationId\` varchar(32) COLLATE "utf8mb4_bin" NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`api_tokens\` DROP COLUMN \`installationId\``);
    await queryRunner.query(`ALTER TABLE \`api_tokens\` DROP COLUMN \`integrationId\``);
    await queryRunner.query(`DROP INDEX \`IDX_7d37378c44f33d50e7e2268396\` ON \`integration_space_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_72c6120b27bddf0368f28f130b\` ON \`integration_space_installations\``);
    await queryRunner.query(`DROP TABLE \`integration_space_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_0bfe7eabe536155c419dbdf4f3\` ON \`integration_site_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_164d8d1bece52a450776ec3124\` ON \`integration_site_installations\``);
    await queryRunner.query(`DROP TABLE \`integration_site_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_3091c98fe41e177f54f44d6ba9\` ON \`integration_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_7c3e3205a65bda99cfa29a8f7d\` ON \`integration_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_1872c359c318669676e18e6a1c\` ON \`integration_installations\``);
    await queryRunner.query(`DROP TABLE \`integration_installations\``);
    await queryRunner.query(`DROP INDEX \`IDX_bf88939f05deac6e4b7dc12213\` ON \`integration_events\``);
    await queryRunner.query(`DROP INDEX \`IDX_00b59e67be9bbe4514a4c9cfca\` ON \`integration_events\``);
    await queryRunner.query(`DROP INDEX \`IDX_6bf82e69198c99120fda4f6d97\` ON \`integration_events\``);
    await queryRunner.query(`DROP TABLE \`integration_events\``);
    await queryRunner.query(`DROP INDEX \`IDX_66f12157df41be40b0fd0a47ef\` ON \`integrations\``);
    await queryRunner.query(`DROP INDEX \`IDX_4f27d3a6f2315710a44f7a6a17\` ON \`integrations\``);
    await queryRunner.query(`DROP TABLE \`integrations\``);
  }
}
