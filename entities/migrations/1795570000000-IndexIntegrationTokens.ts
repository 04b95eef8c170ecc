import { MigrationInterface, QueryRunner } from 'typeorm';

/** Finds an integration's expired tokens, which issuing new ones removes. */
export class IndexIntegrationTokens1795570000000 implements MigrationInterface {
  name = 'IndexIntegrationTokens1795570000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX `IDX_0568c4aadbb831d16ce6ba3870` ON `api_tokens` (`integrationId`, `expiresAt`)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_0568c4aadbb831d16ce6ba3870` ON `api_tokens`');
  }
}
