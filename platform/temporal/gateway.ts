/** The Temporal client, connected lazily so the API can start (and report not-ready) without it. */
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import type { JobsConfig, TemporalConfig } from '../config';
import { boundTemporalCalls } from '../deadline';
import { temporalConnectionOptions } from './connection';

export class TemporalGateway {
  private client: Promise<Client> | null = null;
  private connection: Connection | null = null;

  /** The Temporal settings, and the jobs' (a started run carries their retry policy). */
  constructor(readonly config: TemporalConfig & JobsConfig) {}

  get taskQueue(): string {
    return this.config.temporal.taskQueue;
  }

  async getClient(): Promise<Client> {
    if (!this.client) {
      this.client = Connection.connect({
        ...temporalConnectionOptions(this.config.temporal),
        connectTimeout: '5s',
        // a request's calls are bounded (platform/deadline.ts); the SDK's retry of transient failures stays
        interceptors: [
          boundTemporalCalls(this.config.temporal.callTimeoutMs),
          makeGrpcRetryInterceptor(defaultGrpcRetryOptions()),
        ],
      })
        .then((connection) => {
          this.connection = connection;
          return new Client({ connection, namespace: this.config.temporal.namespace });
        })
        .catch((err) => {
          this.client = null;
          throw err;
        });
    }
    return this.client;
  }

  /** True when the Temporal frontend answers a health check. */
  async isHealthy(): Promise<boolean> {
    try {
      await this.getClient();
      await this.connection?.healthService.check({});
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.connection?.close();
    this.connection = null;
    this.client = null;
  }
}
