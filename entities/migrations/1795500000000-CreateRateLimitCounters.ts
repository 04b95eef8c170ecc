import { MigrationInterface, QueryRunner } from 'typeorm';

/** The counters of the request rate limits, shared by every API replica: one row per token and per organization. */
export class CreateRateLimitCounters1795500000000 implements MigrationInterface {
  name = 'CreateRateLimitCounters1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `rate_limit_counters` (`bucket` varchar(80) COLLATE "utf8mb4_bin" NOT NULL, `windowStart` bigint NOT NULL, `hits` int UNSIGNED NOT NULL, PRIMARY KEY (`bucket`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `rate_limit_counters`');
  }
}
