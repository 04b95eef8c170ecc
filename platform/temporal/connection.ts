/**
 * The options of every connection to Temporal (the API's and CLI's client, the worker, prepare-namespace),
 * from TEMPORAL_ADDRESS and its TLS and API-key settings: mTLS to a self-hosted cluster, or an API key
 * (always over TLS) to Temporal Cloud.
 */
import type { TLSConfig } from '@temporalio/client';
import type { TemporalConfig } from '../config';

export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig;
  apiKey?: string;
}

export function temporalConnectionOptions(temporal: TemporalConfig['temporal']): TemporalConnectionOptions {
  const { address, tls, apiKey } = temporal;
  if (!tls) return { address };
  return {
    address,
    tls: {
      ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
      ...(tls.ca ? { serverRootCACertificate: Buffer.from(tls.ca) } : {}),
      ...(tls.cert ? { clientCertPair: { crt: Buffer.from(tls.cert), key: Buffer.from(tls.key) } } : {}),
    },
    ...(apiKey ? { apiKey } : {}),
  };
}
