import { MigrationInterface, QueryRunner } from 'typeorm';

export class IndexLinksByTarget1795251211872 implements MigrationInterface {
  name = 'IndexLinksByTarget1795251211872';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX \`IDX_30dae2a01b70c455c8a06bfafc\` ON \`space_links\` (\`targetKey\`)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_30dae2a01b70c455c8a06bfafc\` ON \`space_links\``);
  }
}
