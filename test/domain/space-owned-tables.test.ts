/** The purge's list of space-owned tables is checked against the migrated schema, so a new space-keyed table cannot be forgotten. */
import { SPACE_KEYED_TABLES_KEPT, SPACE_OWNED_TABLES } from '../../domain/spaces/purge';
import { useServer } from '../support/server';

const server = useServer();

describe('space-owned tables', () => {
  it('lists every table with a spaceId column as purged or as explicitly kept', async () => {
    const rows: Array<{ name: string }> = await server.ds.query(
      "SELECT TABLE_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLUMN_NAME = 'spaceId'",
    );
    const keyed = rows.map((r) => r.name);
    expect(keyed).toEqual(expect.arrayContaining(['revisions', 'change_requests', 'comments']));
    const listed = new Set([...SPACE_OWNED_TABLES.map((t) => t.table), ...Object.keys(SPACE_KEYED_TABLES_KEPT)]);
    expect(keyed.filter((table) => !listed.has(table)).sort()).toEqual([]);
  });

  it('names only tables that exist', async () => {
    const rows: Array<{ name: string }> = await server.ds.query(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
    );
    const tables = new Set(rows.map((r) => r.name));
    for (const owned of SPACE_OWNED_TABLES) expect(tables).toContain(owned.table);
  });
});
