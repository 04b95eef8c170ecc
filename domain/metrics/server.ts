/** Serves Prometheus metrics at GET /metrics on a listener of its own, never on the public port. */
import http from 'http';
import type { AddressInfo } from 'net';
import type { Registry } from 'prom-client';

/** More text in the exposition format, appended to the registry's (the Temporal SDK's metrics). */
export type MetricsSource = () => Promise<string>;

export interface MetricsServer {
  /** the port listened on (port 0 asks the system for a free one) */
  port: number;
  close(): Promise<void>;
}

export function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
  more: MetricsSource[] = [],
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    Promise.all([registry.metrics(), ...more.map((source) => source())]).then(
      (parts) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(parts.join('\n')),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}
