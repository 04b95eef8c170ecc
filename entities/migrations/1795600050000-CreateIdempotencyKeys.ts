import { MigrationInterface, QueryRunner } from 'typeorm';

/** The `Idempotency-Key`s of write requests, shared by every API replica, with the answers a repeat gets again. */
export class CreateIdempotencyKeys1795600050000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1795600050000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `idempotency_keys` (`scope` char(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, `operationId` varchar(80) NOT NULL, `requestHash` char(64) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, `state` varchar(16) NOT NULL, `holder` char(32) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, `heldUntil` datetime(3) NOT NULL, `status` smallint UNSIGNED NULL, `headers` json NULL, `body` mediumblob NULL, `createdAt` datetime(3) NOT NULL, `expiresAt` datetime(3) NOT NULL, INDEX `IDX_69cdd42dc83e6208402de6acef` (`expiresAt`), PRIMARY KEY (`scope`)) ENGINE=InnoDB',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `idempotency_keys`');
  }
}
