import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sets every space's counters from the rows they count. A string, not a function: TypeORM takes every
 * function a migration file exports for a migration class.
 */
export const FILL_SPACE_COUNTERS = `UPDATE \`spaces\` s SET
  s.changeRequestsCount = (SELECT COUNT(*) FROM change_requests cr WHERE cr.spaceId = s.id),
  s.changeRequestsOpenCount = (SELECT COUNT(*) FROM change_requests cr WHERE cr.spaceId = s.id AND cr.status = 'open'),
  s.changeRequestsDraftCount = (SELECT COUNT(*) FROM change_requests cr WHERE cr.spaceId = s.id AND cr.status = 'draft'),
  s.openCommentsCount = (SELECT COUNT(*) FROM comments c WHERE c.spaceId = s.id AND c.changeRequestId IS NULL AND c.status = 'open')`;

/**
 * A space's change-request and open-comment counts become columns kept by the writes, instead of
 * subqueries of every read (0.13 ms of MariaDB CPU per page of ten spaces); filled from the rows.
 */
export class StoreSpaceCounters1795580000000 implements MigrationInterface {
  name = 'StoreSpaceCounters1795580000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of [
      'changeRequestsCount',
      'changeRequestsOpenCount',
      'changeRequestsDraftCount',
      'openCommentsCount',
    ]) {
      await queryRunner.query(`ALTER TABLE \`spaces\` ADD \`${column}\` int NOT NULL DEFAULT 0`);
    }
    await queryRunner.query(FILL_SPACE_COUNTERS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of [
      'openCommentsCount',
      'changeRequestsDraftCount',
      'changeRequestsOpenCount',
      'changeRequestsCount',
    ]) {
      await queryRunner.query(`ALTER TABLE \`spaces\` DROP COLUMN \`${column}\``);
    }
  }
}
