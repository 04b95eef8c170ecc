/**
 * The bare floor of the HTTP benchmark (bench/http.ts): Express 5 and a mysql2 pool, no framework of
 * ours. `GET /v1/spaces/:spaceId` looks the bearer token up by its hash, then selects the space by
 * primary key and answers the row as JSON: the least any authenticated read must do.
 * Settings: FLOOR_PORT, and the MYSQL_* variables of platform/config.ts.
 */
import { createHash } from 'crypto';
import express from 'express';
import mysql, { RowDataPacket } from 'mysql2/promise';
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
app.get('/v1/spaces/:spaceId', async (req, res) => {
  const match = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return void res.status(401).json({ error: { code: 401, message: 'a valid bearer token is required' } });
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const [tokens] = await pool.execute<RowDataPacket[]>(
    'SELECT id, userId, expiresAt FROM api_tokens WHERE secretHash = ? AND revokedAt IS NULL',
    [hash],
  );
  if (!tokens.length || (tokens[0].expiresAt && tokens[0].expiresAt <= new Date()))
    return void res.status(401).json({ error: { code: 401, message: 'a valid bearer token is required' } });
  const [spaces] = await pool.execute<RowDataPacket[]>('SELECT * FROM spaces WHERE id = ? AND deletedAt IS NULL', [
    req.params.spaceId,
  ]);
  if (!spaces.length) return void res.status(404).json({ error: { code: 404, message: 'space not found' } });
  res.json(spaces[0]);
});

const port = Number(process.env.FLOOR_PORT ?? 8090);
app.listen(port, '127.0.0.1', () => process.stdout.write(`floor listening on ${port}\n`));
process.on('SIGTERM', () => pool.end().finally(() => process.exit(0)));
