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

/** A process without a public port (the worker) answers its probes here: /healthz while it runs, /readyz when `ready`. */
export interface Probes {
  ready(): boolean;
}

export function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
  more: MetricsSource[] = [],
  probes?: Probes,
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (probes && req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
      const ok = path === '/healthz' || probes.ready();
      res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
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
