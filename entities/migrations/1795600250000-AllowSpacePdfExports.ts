import { MigrationInterface, QueryRunner } from 'typeorm';

/** A PDF export is of a change request's revision or, without a change request, of a space's. */
export class AllowSpacePdfExports1795600250000 implements MigrationInterface {
  name = 'AllowSpacePdfExports1795600250000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `pdf_exports` MODIFY `changeRequestId` varchar(32) COLLATE "utf8mb4_bin" NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // the spaces' exports cannot stay; their files are left in the blob store
    await queryRunner.query('DELETE FROM `pdf_exports` WHERE `changeRequestId` IS NULL');
    await queryRunner.query(
      'ALTER TABLE `pdf_exports` MODIFY `changeRequestId` varchar(32) COLLATE "utf8mb4_bin" NOT NULL',
    );
  }
}
