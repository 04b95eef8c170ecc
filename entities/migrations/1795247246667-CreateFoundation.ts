import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateFoundation1795247246667 implements MigrationInterface {
  name = 'CreateFoundation1795247246667';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`api_tokens\` (\`id\` varchar(32) NOT NULL, \`userId\` varchar(32) NOT NULL, \`secretHash\` char(64) NOT NULL, \`label\` varchar(100) NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`expiresAt\` datetime(3) NULL, \`revokedAt\` datetime(3) NULL, INDEX \`IDX_2a2ce819bd75cc0193bfb2692b\` (\`userId\`), UNIQUE INDEX \`IDX_03b99893d4e65696c202f4c7c4\` (\`secretHash\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`collections\` (\`id\` varchar(32) NOT NULL, \`organizationId\` varchar(32) NOT NULL, \`parentId\` varchar(32) NULL, \`title\` varchar(50) NOT NULL, \`description\` varchar(100) NULL, \`defaultLevel\` varchar(16) NULL, \`position\` double NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, INDEX \`IDX_af36149bed042e293ee2a067f6\` (\`organizationId\`, \`parentId\`, \`position\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`content_grants\` (\`targetKind\` varchar(16) NOT NULL, \`targetId\` varchar(32) NOT NULL, \`principalKind\` varchar(8) NOT NULL, \`principalId\` varchar(32) NOT NULL, \`organizationId\` varchar(32) NOT NULL, \`role\` varchar(16) NOT NULL, \`createdAt\` datetime(3) NOT NULL, INDEX \`IDX_27953dbfb1fe076c8fb221fcec\` (\`organizationId\`), INDEX \`IDX_4c8b19351e3e0f5418e04ebe0b\` (\`principalKind\`, \`principalId\`), PRIMARY KEY (\`targetKind\`, \`targetId\`, \`principalKind\`, \`principalId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`link_invites\` (\`id\` varchar(32) NOT NULL, \`organizationId\` varchar(32) NOT NULL, \`role\` varchar(16) NULL, \`createdAt\` datetime(3) NOT NULL, INDEX \`IDX_25d8fe9cfb9ae2d064e5b61a31\` (\`organizationId\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`members\` (\`organizationId\` varchar(32) NOT NULL, \`userId\` varchar(32) NOT NULL, \`role\` varchar(16) NULL, \`disabled\` tinyint NOT NULL DEFAULT 0, \`sso\` tinyint NOT NULL DEFAULT 0, \`joinedAt\` datetime(3) NOT NULL, \`lastSeenAt\` datetime(3) NULL, INDEX \`IDX_839756572a2c38eb5a3b563126\` (\`userId\`), INDEX \`IDX_4c8adb55bc93e0bf77227b84bc\` (\`organizationId\`, \`lastSeenAt\`, \`userId\`), INDEX \`IDX_aaaf02030f2053c397cfc98daa\` (\`organizationId\`, \`joinedAt\`, \`userId\`), PRIMARY KEY (\`organizationId\`, \`userId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`organizations\` (\`id\` varchar(32) NOT NULL, \`title\` varchar(255) NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, \`emailDomains\` json NOT NULL, \`hostname\` varchar(32) NULL, \`type\` varchar(32) NOT NULL, \`useCase\` varchar(32) NULL, \`communityType\` varchar(32) NULL, \`defaultRole\` varchar(16) NULL, \`defaultContent\` json NULL, \`logoURL\` varchar(2048) NULL, \`sso\` tinyint NOT NULL DEFAULT 0, \`ai\` tinyint NOT NULL DEFAULT 0, \`inviteLinks\` tinyint NOT NULL DEFAULT 1, \`plan\` varchar(32) NOT NULL, UNIQUE INDEX \`IDX_d990843fe2cfb6e8fdfe7f6b02\` (\`hostname\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`saml_providers\` (\`id\` varchar(32) NOT NULL, \`organizationId\` varchar(32) NOT NULL, \`label\` varchar(255) NOT NULL, \`entityID\` varchar(1024) NOT NULL, \`certificate\` text NOT NULL, \`ssoURL\` varchar(2048) NOT NULL, \`defaultTeamId\` varchar(32) NULL, \`defaultRole\` varchar(16) NULL, \`status\` varchar(16) NOT NULL, \`createdAt\` datetime(3) NOT NULL, INDEX \`IDX_f31dcc63effd1425dc9e6b8352\` (\`organizationId\`, \`createdAt\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`spaces\` (\`id\` varchar(32) NOT NULL, \`organizationId\` varchar(32) NOT NULL, \`parentId\` varchar(32) NULL, \`title\` varchar(128) NOT NULL, \`emoji\` varchar(32) NULL, \`visibility\` varchar(16) NOT NULL, \`editMode\` varchar(8) NOT NULL, \`language\` varchar(8) NOT NULL, \`defaultLevel\` varchar(16) NULL, \`revisionId\` varchar(32) NULL, \`position\` double NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, \`deletedAt\` datetime(3) NULL, \`purgeStartedAt\` datetime(3) NULL, INDEX \`IDX_75a6dbe86d8de896799b2bf0df\` (\`parentId\`, \`deletedAt\`, \`position\`, \`id\`), INDEX \`IDX_e8e7ce93d9254d5d57622424fa\` (\`organizationId\`, \`deletedAt\`, \`createdAt\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`teams\` (\`id\` varchar(32) NOT NULL, \`organizationId\` varchar(32) NOT NULL, \`title\` varchar(255) NOT NULL, \`createdAt\` datetime(3) NOT NULL, INDEX \`IDX_0fa072049ffe918f3caa04e266\` (\`organizationId\`, \`createdAt\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`team_members\` (\`teamId\` varchar(32) NOT NULL, \`userId\` varchar(32) NOT NULL, \`role\` varchar(16) NOT NULL, \`addedAt\` datetime(3) NOT NULL, INDEX \`IDX_0a72b849753a046462b4c5a8ec\` (\`userId\`), PRIMARY KEY (\`teamId\`, \`userId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`users\` (\`id\` varchar(32) NOT NULL, \`email\` varchar(320) NOT NULL, \`displayName\` varchar(255) NOT NULL, \`photoURL\` varchar(2048) NULL, \`createdAt\` datetime(3) NOT NULL, UNIQUE INDEX \`IDX_97672ac88f789774dd47f7c8be\` (\`email\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_97672ac88f789774dd47f7c8be\` ON \`users\``);
    await queryRunner.query(`DROP TABLE \`users\``);
    await queryRunner.query(`DROP INDEX \`IDX_0a72b849753a046462b4c5a8ec\` ON \`team_members\``);
    await queryRunner.query(`DROP TABLE \`team_members\``);
    await queryRunner.query(`DROP INDEX \`IDX_0fa072049ffe918f3caa04e266\` ON \`teams\``);
    await queryRunner.query(`DROP TABLE \`teams\``);
    await queryRunner.query(`DROP INDEX \`IDX_e8e7ce93d9254d5d57622424fa\` ON \`spaces\``);
    await queryRunner.query(`DROP INDEX \`IDX_75a6dbe86d8de896799b2bf0df\` ON \`spaces\``);
    await queryRunner.query(`DROP TABLE \`spaces\``);
    await queryRunner.query(`DROP INDEX \`IDX_f31dcc63effd1425dc9e6b8352\` ON \`saml_providers\``);
    await queryRunner.query(`DROP TABLE \`saml_providers\``);
    await queryRunner.query(`DROP INDEX \`IDX_d990843fe2cfb6e8fdfe7f6b02\` ON \`organizations\``);
    await queryRunner.query(`DROP TABLE \`organizations\``);
    await queryRunner.query(`DROP INDEX \`IDX_aaaf02030f2053c397cfc98daa\` ON \`members\``);
    await queryRunner.query(`DROP INDEX \`IDX_4c8adb55bc93e0bf77227b84bc\` ON \`members\``);
    await queryRunner.query(`DROP INDEX \`IDX_839756572a2c38eb5a3b563126\` ON \`members\``);
    await queryRunner.query(`DROP TABLE \`members\``);
    await queryRunner.query(`DROP INDEX \`IDX_25d8fe9cfb9ae2d064e5b61a31\` ON \`link_invites\``);
    await queryRunner.query(`DROP TABLE \`link_invites\``);
    await queryRunner.query(`DROP INDEX \`IDX_4c8b19351e3e0f5418e04ebe0b\` ON \`content_grants\``);
    await queryRunner.query(`DROP INDEX \`IDX_27953dbfb1fe076c8fb221fcec\` ON \`content_grants\``);
    await queryRunner.query(`DROP TABLE \`content_grants\``);
    await queryRunner.query(`DROP INDEX \`IDX_af36149bed042e293ee2a067f6\` ON \`collections\``);
    await queryRunner.query(`DROP TABLE \`collections\``);
    await queryRunner.query(`DROP INDEX \`IDX_03b99893d4e65696c202f4c7c4\` ON \`api_tokens\``);
    await queryRunner.query(`DROP INDEX \`IDX_2a2ce819bd75cc0193bfb2692b\` ON \`api_tokens\``);
    await queryRunner.query(`DROP TABLE \`api_tokens\``);
  }
}
