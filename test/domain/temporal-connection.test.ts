/**
 * The connection options the Temporal settings produce (the dev server here cannot serve TLS,
 * so the options are what is checked: the API's client, the worker and prepare-namespace all connect with them).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { loadTemporalConfig } from '../../platform/config';
import { temporalConnectionOptions } from '../../platform/temporal/connection';
import { withEnv } from '../support/env';

const pem = (label: string, body: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
const CA = pem('CERTIFICATE', 'Q0E=');
const CERT = pem('CERTIFICATE', 'Q0VSVA==');
const KEY = pem('PRIVATE KEY', 'S0VZ');

const UNSET = Object.fromEntries(
  [
    'TEMPORAL_TLS',
    'TEMPORAL_TLS_CA',
    'TEMPORAL_TLS_CERT',
    'TEMPORAL_TLS_KEY',
    'TEMPORAL_TLS_SERVER_NAME',
    'TEMPORAL_API_KEY',
  ].flatMap((name) => [
    [name, undefined],
    [`${name}_FILE`, undefined],
  ]),
);

const optionsUnder = (env: Record<string, string>) =>
  withEnv({ ...UNSET, TEMPORAL_ADDRESS: 'temporal.example:7233', ...env }, () =>
    temporalConnectionOptions(loadTemporalConfig().temporal),
  );

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'docs-temporal-tls-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Temporal connection options', () => {
  it('are plain gRPC by default', () => {
    expect(optionsUnder({})).toEqual({ address: 'temporal.example:7233' });
  });

  it('carry mTLS: the CA, the client pair (from files) and the server name', () => {
    const files = Object.fromEntries(
      Object.entries({ ca: CA, cert: CERT, key: KEY }).map(([name, text]) => {
        const at = path.join(dir, `${name}.pem`);
        writeFileSync(at, `${text}\n`);
        return [name, at];
      }),
    );
    expect(
      optionsUnder({
        TEMPORAL_TLS_CA_FILE: files.ca,
        TEMPORAL_TLS_CERT_FILE: files.cert,
        TEMPORAL_TLS_KEY_FILE: files.key,
        TEMPORAL_TLS_SERVER_NAME: 'frontend.temporal.internal',
      }),
    ).toEqual({
      address: 'temporal.example:7233',
      tls: {
        serverNameOverride: 'frontend.temporal.internal',
        serverRootCACertificate: Buffer.from(CA),
        clientCertPair: { crt: Buffer.from(CERT), key: Buffer.from(KEY) },
      },
    });
  });

  it("carry Temporal Cloud's API key, always over TLS with the system's CAs", () => {
    expect(optionsUnder({ TEMPORAL_API_KEY: 'tc-api-key' })).toEqual({
      address: 'temporal.example:7233',
      tls: {},
      apiKey: 'tc-api-key',
    });
    expect(optionsUnder({ TEMPORAL_TLS: 'true' })).toEqual({ address: 'temporal.example:7233', tls: {} });
  });
});
