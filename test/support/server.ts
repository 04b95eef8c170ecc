/** The real app on the real test database, driven in-process through supertest. */
import 'reflect-metadata';
import type { Express } from 'express';
import pino, { type Logger } from 'pino';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createApp } from '../../api/app';
import { Config, loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import type { WorkSource } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { TemporalGateway } from '../../platform/temporal/gateway';
import { failPendingAnswers, reportFigures, useOurDocument, watchAnswers } from './answer-validation';
import { recordExamples } from './example-recorder';

// every 2xx answer of every test is held to GitBook's documents and ours (answer-validation.ts)
if (typeof afterEach === 'function') {
  afterEach(failPendingAnswers);
  afterAll(() => {
    reportFigures(expect.getState().testPath ?? '');
    failPendingAnswers();
  });
}

/** The API under test; with its data source, gateway and logger, it is what a transaction that starts jobs takes. */
export interface TestServer extends WorkSource {
  app: Express;
  ds: DataSource;
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
  /** supertest with the bearer token set */
  as(token: string): {
    get(path: string): request.Test;
    post(path: string): request.Test;
    put(path: string): request.Test;
    patch(path: string): request.Test;
    delete(path: string): request.Test;
  };
  close(): Promise<void>;
}

export async function startServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const config = { ...loadConfig(), ...overrides };
  const ds = await createDataSource(config).initialize();
  const temporal = new TemporalGateway(config);
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const app = createApp({ ds, config, temporal, blobs: createBlobStore(config), logger });
  watchAnswers(app);
  recordExamples(app);
  useOurDocument((await request(app).get('/v1/openapi.json').expect(200)).body);
  const agent = request(app);
  return {
    app,
    ds,
    config,
    temporal,
    logger,
    as: (token: string) => ({
      get: (p) => agent.get(p).set('Authorization', `Bearer ${token}`),
      post: (p) => agent.post(p).set('Authorization', `Bearer ${token}`),
      put: (p) => agent.put(p).set('Authorization', `Bearer ${token}`),
      patch: (p) => agent.patch(p).set('Authorization', `Bearer ${token}`),
      delete: (p) => agent.delete(p).set('Authorization', `Bearer ${token}`),
    }),
    close: async () => {
      await temporal.close();
      await ds.destroy();
    },
  };
}

/**
 * Starts the server before the file's (or describe block's) tests and closes it after them. The
 * object is filled in by beforeAll, so tests use it as they would a started server.
 */
export function useServer(overrides: Partial<Config> = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startServer(overrides));
  });
  afterAll(async () => {
    await server.close();
  });
  return server;
}
