/**
 * The bare floor of the HTTP benchmark (bench/http.ts): Express 5 and a mysql2 pool, no framework of
 * ours. `GET /v1/spaces/:spaceId` looks the bearer token up by its hash, then selects the space by
 * primary key and answers the row as JSON: the least any authenticated read must do (2 statements).
 * `GET /v1/spaces/:spaceId/search?query=` does the same, then runs the service's own full-text statements for a
 * query whose last word is a prefix (domain/search: the ranked pages, then their sections) and answers the rows: the
 * least a search must do (4 statements), what a search with a new query is compared with.
 * `GET /v1/openapi.json` answers the API's own document (the file FLOOR_DOCUMENT), gzipped once at start for a client
 * that accepts it, as the API serves it: the least serving those bytes costs, what the API's answer is compared with.
 * Settings: FLOOR_PORT, FLOOR_DOCUMENT, and the MYSQL_* variables of platform/config.ts.
 */
import { createHash } from 'crypto';
import express from 'express';
import { readFileSync } from 'fs';
import mysql, { RowDataPacket } from 'mysql2/promise';
import { gzipSync } from 'zlib';
import { DEFAULT_LIMIT } from '../api/middleware/paginate';
import { BOOLEAN_MATCH } from '../domain/search/matcher';
import { rankedSql, SECTIONS_OF_PAGES_SQL, spacePagesGroupedSql } from '../domain/search/queries';
import { loadDatabaseConfig } from '../platform/config';

const config = loadDatabaseConfig();
const pool = mysql.createPool({
  host: config.mysql.host,
  port: config.mysql.port,
  user: config.mysql.user,
  password: config.mysql.password,
  database: config.mysql.database,
  connectionLimit: config.mysql.poolSize,
  timezone: 'Z',
});

const app = express();
app.disable('x-powered-by');
const UNAUTHORIZED = 'a valid bearer token is required';

/** Answers `status` with `message` and gives null: the request ends there. */
function refuse(res: express.Response, status: number, message: string): null {
  res.status(status).json({ error: { code: status, message } });
  return null;
}

/** The caller's token, looked up by its hash, and the live space: null once answered (401, 404). */
async function authenticatedSpace(req: express.Request, res: express.Response): Promise<RowDataPacket | null> {
  const match = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return refuse(res, 401, UNAUTHORIZED);
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const [tokens] = await pool.execute<RowDataPacket[]>(
    'SELECT id, userId, expiresAt FROM api_tokens WHERE secretHash = ? AND revokedAt IS NULL',
    [hash],
  );
  if (!tokens.length || (tokens[0].expiresAt && tokens[0].expiresAt <= new Date()))
    return refuse(res, 401, UNAUTHORIZED);
  const [spaces] = await pool.execute<RowDataPacket[]>('SELECT * FROM spaces WHERE id = ? AND deletedAt IS NULL', [
    req.params.spaceId,
  ]);
  if (!spaces.length) return refuse(res, 404, 'space not found');
  return spaces[0];
}

app.get('/v1/spaces/:spaceId', async (req, res) => {
  const space = await authenticatedSpace(req, res);
  if (space) res.json(space);
});

// the service's statements, with its `:searchText` as the driver's `?`
const against = BOOLEAN_MATCH.replace(':searchText', '?');
const RANK_SQL = rankedSql(spacePagesGroupedSql(against, against), false);

app.get('/v1/spaces/:spaceId/search', async (req, res) => {
  const space = await authenticatedSpace(req, res);
  if (!space) return;
  const words = String(req.query.query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  if (!words.length) return void refuse(res, 400, 'query: required');
  const searchText = [...words.slice(0, -1), `${words.at(-1)}*`].join(' ');
  const [ranked] = await pool.query<RowDataPacket[]>(RANK_SQL, [searchText, space.id, searchText, DEFAULT_LIMIT + 1]);
  const pageIds = ranked.slice(0, DEFAULT_LIMIT).map((r) => r.id as string);
  const [sections] = pageIds.length
    ? await pool.query<RowDataPacket[]>(SECTIONS_OF_PAGES_SQL, [[space.id], pageIds])
    : [[]];
  res.json({ items: ranked.slice(0, DEFAULT_LIMIT), sections, count: ranked.length ? Number(ranked[0].total) : 0 });
});

const documentFile = process.env.FLOOR_DOCUMENT;
if (documentFile) {
  const document = readFileSync(documentFile);
  const gzipped = gzipSync(document, { level: 9 });
  app.get('/v1/openapi.json', (req, res) => {
    res.set({ 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept-Encoding' });
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip')
      return void res.set('Content-Encoding', 'gzip').send(gzipped);
    res.send(document);
  });
}

const port = Number(process.env.FLOOR_PORT ?? 8090);
app.listen(port, '127.0.0.1', () => process.stdout.write(`floor listening on ${port}\n`));
process.on('SIGTERM', () => pool.end().finally(() => process.exit(0)));
