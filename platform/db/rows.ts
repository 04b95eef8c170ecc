/**
 * Entities from hand-written statements, for the reads every request makes (the caller's token and
 * memberships, the space, its counters). TypeORM's query builder spends about 0.2 ms of CPU per
 * statement building the SQL and mapping its aliases back, three times what the statement itself
 * costs the driver; on the hot path that was most of a request. A statement here selects an entity's
 * columns with `columnsOf` (each as `alias_column`, so joined tables never collide), and `hydrate`
 * converts each value exactly as TypeORM does when it loads the entity (the driver's hydration).
 */
import type { EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { Db } from './transactions';

const selectLists = new Map<string, string>();

/**
 * The entity's columns to select: all of them, or those of the top-level `properties` (a statement that needs only
 * those: its entities then hold only them).
 */
function columnsSelected(metadata: EntityMetadata, properties?: readonly string[]): ColumnMetadata[] {
  return properties
    ? metadata.columns.filter((c) => !c.embeddedMetadata && properties.includes(c.propertyName))
    : metadata.columns;
}

/** `alias.col AS alias_col, ...` for every column of the entity, or for those of `properties`. */
export function columnsOf(
  db: Db,
  target: EntityTarget<ObjectLiteral>,
  alias: string,
  properties?: readonly string[],
): string {
  const metadata = db.connection.getMetadata(target);
  const key = `${metadata.tableName} ${alias} ${properties?.join(',') ?? ''}`;
  let list = selectLists.get(key);
  if (!list) {
    list = columnsSelected(metadata, properties)
      .map((c) => `${alias}.\`${c.databaseName}\` AS \`${alias}_${c.databaseName}\``)
      .join(', ');
    selectLists.set(key, list);
  }
  return list;
}

/** Column types whose driver value TypeORM keeps as it is (MysqlDriver.prepareHydratedValue), when no transformer is set. */
const KEPT_AS_READ = new Set([
  'varchar',
  'char',
  'text',
  'tinytext',
  'mediumtext',
  'longtext',
  'int',
  'integer',
  'tinyint',
  'smallint',
  'mediumint',
  'bigint',
  'double',
  'float',
  'decimal',
]);

type Hydrator = (row: Record<string, unknown>) => ObjectLiteral;
const hydrators = new Map<string, Hydrator>();

/**
 * Builds, once per entity and alias, what sets each column: a plain property set for a top-level
 * column whose value needs no conversion, TypeORM's own conversion and setter for the others
 * (dates, booleans, JSON, embedded columns). A page of ten spaces took 27 µs through TypeORM's
 * per-column path, most of it for values it leaves as they are.
 */
function hydratorOf(
  db: Db,
  target: EntityTarget<ObjectLiteral>,
  alias: string,
  properties?: readonly string[],
): Hydrator {
  const metadata = db.connection.getMetadata(target);
  const key = `${metadata.tableName} ${alias} ${properties?.join(',') ?? ''}`;
  let hydrator = hydrators.get(key);
  if (!hydrator) {
    const driver = db.connection.driver;
    const columns = columnsSelected(metadata, properties);
    const plain = columns.filter(
      (c) => !c.embeddedMetadata && !c.transformer && typeof c.type === 'string' && KEPT_AS_READ.has(c.type),
    );
    const converted = columns.filter((c) => !plain.includes(c));
    const plainFields = plain.map((c) => [c.propertyName, `${alias}_${c.databaseName}`] as const);
    const convertedFields = converted.map((c) => [c, `${alias}_${c.databaseName}`] as const);
    hydrator = (row) => {
      const entity = metadata.create() as Record<string, unknown>;
      for (const [property, field] of plainFields) entity[property] = row[field];
      for (const [column, field] of convertedFields)
        column.setEntityValue(entity, driver.prepareHydratedValue(row[field], column));
      return entity;
    };
    hydrators.set(key, hydrator);
  }
  return hydrator;
}

/** The entity whose columns `columnsOf(db, target, alias, properties)` selected into `row`. */
export function hydrate<T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  alias: string,
  row: Record<string, unknown>,
  properties?: readonly string[],
): T {
  return hydratorOf(db, target, alias, properties)(row) as T;
}

/** The first entity matching `where` (SQL over the alias `x`), in one hand-written statement. */
export async function findOneWhere<T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
): Promise<T | null> {
  const table = db.connection.getMetadata(target).tableName;
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${columnsOf(db, target, 'x')} FROM \`${table}\` x WHERE ${where} LIMIT 1`,
    params,
  );
  return rows.length ? hydrate(db, target, 'x', rows[0]) : null;
}

interface PreparingPool {
  execute(sql: string, params: unknown[], callback: (err: Error | null, rows: unknown) => void): void;
}

/**
 * Runs a fixed-text statement of the hot path as a prepared statement (mysql2's `execute`, binary
 * protocol) when it is not part of a transaction: MariaDB parses each such text once per pooled
 * connection instead of on every request, which took about a quarter of the database's CPU for the
 * reads every request makes (the token, the space with its counters). Inside a transaction it runs
 * on the transaction's connection as any other statement. Only for statements whose text does not
 * vary with their parameters: each distinct text is kept prepared on every connection.
 */
export function queryPrepared(db: Db, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  const pool = (db.connection.driver as unknown as { pool?: PreparingPool }).pool;
  if (db.queryRunner || !pool) return db.query(sql, params);
  // logged like every statement TypeORM runs (the HTTP benchmark counts statements through its logger)
  db.connection.logger.logQuery(sql, params);
  return new Promise((resolve, reject) =>
    pool.execute(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as Array<Record<string, unknown>>))),
  );
}
