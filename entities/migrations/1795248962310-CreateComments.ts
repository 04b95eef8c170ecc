import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateComments1795248962310 implements MigrationInterface {
  name = 'CreateComments1795248962310';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`comments\` (\`id\` varchar(32) NOT NULL, \`spaceId\` varchar(32) NOT NULL, \`changeRequestId\` varchar(32) NULL, \`pageId\` varchar(32) NULL, \`nodeId\` varchar(128) NULL, \`nodePreview\` varchar(512) NULL, \`tableCellRecord\` varchar(128) NULL, \`tableCellDefinition\` varchar(128) NULL, \`revisionId\` varchar(32) NOT NULL, \`pageVersion\` char(40) NULL, \`body\` mediumtext NOT NULL, \`postedById\` varchar(32) NOT NULL, \`postedAt\` datetime(3) NOT NULL, \`editedAt\` datetime(3) NULL, \`status\` varchar(16) NOT NULL, \`resolvedAt\` datetime(3) NULL, \`resolvedById\` varchar(32) NULL, \`replies\` int NOT NULL DEFAULT '0', INDEX \`IDX_366a4889d989c3a22f832a8689\` (\`changeRequestId\`, \`status\`), INDEX \`IDX_a12cc57817896201d150827a66\` (\`spaceId\`, \`changeRequestId\`, \`status\`), INDEX \`IDX_85343b29c2316a21fcb1b6f96b\` (\`spaceId\`, \`changeRequestId\`, \`postedAt\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`comment_reactions\` (\`targetKind\` varchar(8) NOT NULL, \`targetId\` varchar(32) NOT NULL, \`emoji\` varchar(64) COLLATE "utf8mb4_bin" NOT NULL, \`userId\` varchar(32) NOT NULL, \`reactedAt\` datetime(3) NOT NULL, PRIMARY KEY (\`targetKind\`, \`targetId\`, \`emoji\`, \`userId\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`comment_replies\` (\`id\` varchar(32) NOT NULL, \`commentId\` varchar(32) NOT NULL, \`body\` mediumtext NOT NULL, \`postedById\` varchar(32) NOT NULL, \`postedAt\` datetime(3) NOT NULL, \`editedAt\` datetime(3) NULL, INDEX \`IDX_6d9ffb1f0189dabf9ecfe52faf\` (\`commentId\`, \`postedAt\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_6d9ffb1f0189dabf9ecfe52faf\` ON \`comment_replies\``);
    await queryRunner.query(`DROP TABLE \`comment_replies\``);
    await queryRunner.query(`DROP TABLE \`comment_reactions\``);
    await queryRunner.query(`DROP INDEX \`IDX_85343b29c2316a21fcb1b6f96b\` ON \`comments\``);
    await queryRunner.query(`DROP INDEX \`IDX_a12cc57817896201d150827a66\` ON \`comments\``);
    await queryRunner.query(`DROP INDEX \`IDX_366a4889d989c3a22f832a8689\` ON \`comments\``);
    await queryRunner.query(`DROP TABLE \`comments\``);
  }
}
