import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateContentModel1795248640112 implements MigrationInterface {
  name = 'CreateContentModel1795248640112';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`change_requests\` (\`id\` varchar(32) NOT NULL, \`spaceId\` varchar(32) NOT NULL, \`number\` int NOT NULL, \`status\` varchar(16) NOT NULL, \`subject\` varchar(100) NOT NULL, \`agentTaskId\` varchar(128) NULL, \`createdById\` varchar(32) NOT NULL, \`createdAt\` datetime(3) NOT NULL, \`updatedAt\` datetime(3) NOT NULL, \`revisionInitialId\` varchar(32) NOT NULL, \`revisionId\` varchar(32) NOT NULL, \`revisionMergedAncestorId\` varchar(32) NULL, \`revisionMergedId\` varchar(32) NULL, \`mergedAt\` datetime(3) NULL, INDEX \`IDX_ff8e5e3c296a8c367e4cf3f43f\` (\`spaceId\`, \`status\`, \`number\`), UNIQUE INDEX \`IDX_0c3f099f57b20b956e092a5f9f\` (\`spaceId\`, \`number\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`content_objects\` (\`hash\` char(40) NOT NULL, \`body\` longtext NOT NULL, PRIMARY KEY (\`hash\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`revisions\` (\`id\` varchar(32) NOT NULL, \`spaceId\` varchar(32) NOT NULL, \`changeRequestId\` varchar(32) NULL, \`parents\` json NOT NULL, \`type\` varchar(16) NOT NULL, \`root\` char(40) NOT NULL, \`variables\` json NOT NULL, \`createdById\` varchar(32) NULL, \`createdAt\` datetime(3) NOT NULL, INDEX \`IDX_c7986da9dbb031831852bc0ffd\` (\`changeRequestId\`, \`createdById\`), INDEX \`IDX_f4427cb162cf9034d8d9135ea8\` (\`spaceId\`, \`createdAt\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`search_sections\` (\`spaceId\` varchar(32) NOT NULL, \`pageId\` varchar(32) NOT NULL, \`ordinal\` int NOT NULL, \`anchor\` varchar(128) NOT NULL, \`title\` varchar(512) NOT NULL, \`body\` mediumtext NOT NULL, FULLTEXT INDEX \`IDX_a91d415378564a06a1b318fc7a\` (\`title\`, \`body\`), PRIMARY KEY (\`spaceId\`, \`pageId\`, \`ordinal\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`space_links\` (\`spaceId\` varchar(32) NOT NULL, \`sourcePageId\` varchar(32) NOT NULL, \`ordinal\` int NOT NULL, \`kind\` varchar(16) NOT NULL, \`target\` varchar(2048) NOT NULL, \`targetKey\` char(40) NOT NULL, \`status\` varchar(16) NOT NULL, INDEX \`IDX_e8f035fb51322b2c1a2f4411ca\` (\`spaceId\`, \`status\`), INDEX \`IDX_b8fc56f105a26333a3edecc80c\` (\`spaceId\`, \`targetKey\`), PRIMARY KEY (\`spaceId\`, \`sourcePageId\`, \`ordinal\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_b8fc56f105a26333a3edecc80c\` ON \`space_links\``);
    await queryRunner.query(`DROP INDEX \`IDX_e8f035fb51322b2c1a2f4411ca\` ON \`space_links\``);
    await queryRunner.query(`DROP TABLE \`space_links\``);
    await queryRunner.query(`DROP INDEX \`IDX_a91d415378564a06a1b318fc7a\` ON \`search_sections\``);
    await queryRunner.query(`DROP TABLE \`search_sections\``);
    await queryRunner.query(`DROP INDEX \`IDX_f4427cb162cf9034d8d9135ea8\` ON \`revisions\``);
    await queryRunner.query(`DROP INDEX \`IDX_c7986da9dbb031831852bc0ffd\` ON \`revisions\``);
    await queryRunner.query(`DROP TABLE \`revisions\``);
    await queryRunner.query(`DROP TABLE \`content_objects\``);
    await queryRunner.query(`DROP INDEX \`IDX_0c3f099f57b20b956e092a5f9f\` ON \`change_requests\``);
    await queryRunner.query(`DROP INDEX \`IDX_ff8e5e3c296a8c367e4cf3f43f\` ON \`change_requests\``);
    await queryRunner.query(`DROP TABLE \`change_requests\``);
  }
}
