import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every id column (entities/columns.ts IdColumn and RefColumn) by table, with whether it is nullable.
 * Frozen here: a migration must not follow later changes of the entities.
 */
const ID_COLUMNS: Record<string, [column: string, nullable: boolean][]> = {
  api_tokens: [
    ['id', false],
    ['userId', false],
  ],
  change_requests: [
    ['id', false],
    ['spaceId', false],
    ['createdById', false],
    ['revisionInitialId', false],
    ['revisionId', false],
    ['revisionMergedAncestorId', true],
    ['revisionMergedId', true],
  ],
  collections: [
    ['id', false],
    ['organizationId', false],
    ['parentId', true],
  ],
  comment_reactions: [
    ['targetId', false],
    ['userId', false],
  ],
  comment_replies: [
    ['id', false],
    ['commentId', false],
    ['postedById', false],
  ],
  comments: [
    ['id', false],
    ['spaceId', false],
    ['changeRequestId', true],
    ['pageId', true],
    ['revisionId', false],
    ['postedById', false],
    ['resolvedById', true],
  ],
  content_grants: [
    ['targetId', false],
    ['principalId', false],
    ['organizationId', false],
  ],
  link_invites: [
    ['id', false],
    ['organizationId', false],
  ],
  members: [
    ['organizationId', false],
    ['userId', false],
  ],
  organizations: [['id', false]],
  revisions: [
    ['id', false],
    ['spaceId', false],
    ['changeRequestId', true],
    ['createdById', true],
  ],
  saml_providers: [
    ['id', false],
    ['organizationId', false],
    ['defaultTeamId', true],
  ],
  search_pages: [
    ['spaceId', false],
    ['pageId', false],
  ],
  search_sections: [
    ['spaceId', false],
    ['pageId', false],
  ],
  space_links: [
    ['spaceId', false],
    ['sourcePageId', false],
  ],
  spaces: [
    ['id', false],
    ['organizationId', false],
    ['parentId', true],
    ['revisionId', true],
  ],
  team_members: [
    ['teamId', false],
    ['userId', false],
  ],
  teams: [
    ['id', false],
    ['organizationId', false],
  ],
  users: [['id', false]],
};

/**
 * Ids are case-sensitive random strings: compare them byte for byte (utf8mb4_bin) instead of with the
 * database default utf8mb4_unicode_ci, under which an id with its letter case swapped, or followed by
 * NUL or a no-break space, named the same row. utf8mb4_bin still ignores trailing spaces (it is a PAD
 * SPACE collation; the NO PAD binary one is named differently in MariaDB and MySQL 8), so the API
 * refuses ids outside their alphabet before they reach a query. No foreign keys; MODIFY rebuilds indexes.
 */
export class MakeIdsCaseSensitive1795431862811 implements MigrationInterface {
  name = 'MakeIdsCaseSensitive1795431862811';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await setCollation(queryRunner, 'utf8mb4_bin');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await setCollation(queryRunner, 'utf8mb4_unicode_ci');
  }
}

async function setCollation(queryRunner: QueryRunner, collation: string): Promise<void> {
  for (const [table, columns] of Object.entries(ID_COLUMNS)) {
    const changes = columns.map(
      ([column, nullable]) =>
        `MODIFY \`${column}\` varchar(32) CHARACTER SET utf8mb4 COLLATE ${collation} ${nullable ? 'NULL' : 'NOT NULL'}`,
    );
    await queryRunner.query(`ALTER TABLE \`${table}\` ${changes.join(', ')}`);
  }
}
