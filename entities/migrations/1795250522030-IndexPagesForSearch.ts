import { MigrationInterface, QueryRunner } from 'typeorm';

export class IndexPagesForSearch1795250522030 implements MigrationInterface {
  name = 'IndexPagesForSearch1795250522030';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_a91d415378564a06a1b318fc7a\` ON \`search_sections\``);
    await queryRunner.query(
      `CREATE TABLE \`search_pages\` (\`spaceId\` varchar(32) NOT NULL, \`pageId\` varchar(32) NOT NULL, \`title\` varchar(512) NOT NULL, \`body\` mediumtext NOT NULL, FULLTEXT INDEX \`IDX_c64df6a258f59deeee2c1863d0\` (\`title\`, \`body\`), PRIMARY KEY (\`spaceId\`, \`pageId\`)) ENGINE=InnoDB`,
    );
    // Backfill from the sections already indexed: the intro's text, then each section's title and text.
    await queryRunner.query(`SET SESSION group_concat_max_len = 4000000`);
    await queryRunner.query(
      `INSERT INTO \`search_pages\` (\`spaceId\`, \`pageId\`, \`title\`, \`body\`) ` +
        `SELECT \`spaceId\`, \`pageId\`, COALESCE(MAX(CASE WHEN \`ordinal\` = 0 THEN \`title\` END), MIN(\`title\`)), ` +
        `GROUP_CONCAT(CASE WHEN \`ordinal\` = 0 THEN \`body\` ELSE CONCAT(\`title\`, '\\n', \`body\`) END ORDER BY \`ordinal\` SEPARATOR '\\n') ` +
        `FROM \`search_sections\` GROUP BY \`spaceId\`, \`pageId\``,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_c64df6a258f59deeee2c1863d0\` ON \`search_pages\``);
    await queryRunner.query(`DROP TABLE \`search_pages\``);
    await queryRunner.query(
      `CREATE FULLTEXT INDEX \`IDX_a91d415378564a06a1b318fc7a\` ON \`search_sections\` (\`title\`, \`body\`)`,
    );
  }
}
