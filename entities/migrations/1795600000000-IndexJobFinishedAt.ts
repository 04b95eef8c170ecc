import { MigrationInterface, QueryRunner } from 'typeorm';

/** Finds the runs that ended lately, for the jobs gauge (domain/metrics/jobs.ts): one index per job table. */
export class IndexJobFinishedAt1795600000000 implements MigrationInterface {
  name = 'IndexJobFinishedAt1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX \`IDX_a7b71b36312c8c801f6fcf1567\` ON \`import_runs\` (\`processFinishedAt\`)`,
    );
    await queryRunner.query(
      `CREATE INDEX \`IDX_fbc5597af7b062612008f2a6df\` ON \`integration_events\` (\`dispatchFinishedAt\`)`,
    );
    await queryRunner.query(
      `CREATE INDEX \`IDX_04589630772dacbaccd017f53f\` ON \`openapi_specs\` (\`processFinishedAt\`)`,
    );
    await queryRunner.query(
      `CREATE INDEX \`IDX_7aee2f53b652dd25bef3620fe1\` ON \`pdf_exports\` (\`renderFinishedAt\`)`,
    );
    await queryRunner.query(`CREATE INDEX \`IDX_27c0615323848c7816ade32195\` ON \`spaces\` (\`purgeFinishedAt\`)`);
    await queryRunner.query(`CREATE INDEX \`IDX_5c20eaea17ec61d9c247bdfe50\` ON \`translations\` (\`runFinishedAt\`)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_5c20eaea17ec61d9c247bdfe50\` ON \`translations\``);
    await queryRunner.query(`DROP INDEX \`IDX_27c0615323848c7816ade32195\` ON \`spaces\``);
    await queryRunner.query(`DROP INDEX \`IDX_7aee2f53b652dd25bef3620fe1\` ON \`pdf_exports\``);
    await queryRunner.query(`DROP INDEX \`IDX_04589630772dacbaccd017f53f\` ON \`openapi_specs\``);
    await queryRunner.query(`DROP INDEX \`IDX_fbc5597af7b062612008f2a6df\` ON \`integration_events\``);
    await queryRunner.query(`DROP INDEX \`IDX_a7b71b36312c8c801f6fcf1567\` ON \`import_runs\``);
  }
}
