/**
 * A 503 tells the caller only to retry, so its log line must name the dependency's error behind it
 * (the driver's code, errno and message), never the SQL text. The error handler behind a bare Express app, with
 * the errors mysql2 and TypeORM raise.
 */
import express from 'express';
import pino from 'pino';
import { Writable } from 'stream';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { errorHandler } from '../../api/middleware/errors';

function appThrowing(err: unknown, lines: Array<Record<string, unknown>>) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = express();
  app.get('/x', () => {
    throw err;
  });
  app.use(errorHandler(pino({ level: 'info' }, sink)));
  return app;
}

const deadlock = new QueryFailedError('INSERT INTO `api_tokens` (`secret`) VALUES (?)', ['s3cret'], {
  name: 'Error',
  message: 'Deadlock found when trying to get lock; try restarting transaction',
  code: 'ER_LOCK_DEADLOCK',
  errno: 1213,
  sqlMessage: 'Deadlock found when trying to get lock; try restarting transaction',
} as unknown as Error);

const acquire = Object.assign(new Error('no MySQL connection was free within 10000 ms (MYSQL_ACQUIRE_TIMEOUT_MS)'), {
  code: 'POOL_ACQUIRE_TIMEOUT',
});

it.each([
  [
    'a deadlock',
    deadlock,
    'ER_LOCK_DEADLOCK',
    1213,
    'Deadlock found when trying to get lock; try restarting transaction',
  ],
  [
    'no free connection',
    acquire,
    'POOL_ACQUIRE_TIMEOUT',
    undefined,
    'no MySQL connection was free within 10000 ms (MYSQL_ACQUIRE_TIMEOUT_MS)',
  ],
])('the log line of a 503 for %s names its cause, without the SQL', async (_name, err, code, errno, message) => {
  const lines: Array<Record<string, unknown>> = [];
  const res = await request(appThrowing(err, lines)).get('/x').expect(503);
  expect(res.body.error.message).not.toContain(message);
  const logged = lines.find((l) => String(l.msg).startsWith('answered 503'));
  expect(logged).toMatchObject({ level: 40, cause: { code, message, ...(errno ? { errno } : {}) } });
  expect(JSON.stringify(lines)).not.toContain('api_tokens');
  expect(JSON.stringify(lines)).not.toContain('s3cret');
});
