/**
 * The guarded fetch against real local HTTP servers. The refusal table runs with the default policy
 * (no loopback): every row must be refused before any request reaches a server. Private and
 * link-local literals (10.0.0.1, 169.254.169.254) are refused without a packet being sent.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { FetchError } from '../../platform/net/fetch-error';
import { FetchPolicy, GuardedFetch, Resolver } from '../../platform/net/guarded-fetch';

interface LocalServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener): Promise<LocalServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const basePolicy: FetchPolicy = {
  allowLoopback: false,
  maxRedirects: 3,
  connectTimeoutMs: 1000,
  totalTimeoutMs: 1500,
  maxBytes: 1024,
};

async function failure(client: GuardedFetch, url: string): Promise<FetchError> {
  const err = await client.fetch(url).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof FetchError))
    throw new Error(`${url}: expected a FetchError, got ${err === null ? 'a response' : String(err)}`);
  return err;
}

let target: LocalServer;
let redirector: LocalServer;
const clients: GuardedFetch[] = [];
function client(policy: Partial<FetchPolicy> = {}): GuardedFetch {
  const c = new GuardedFetch({ ...basePolicy, ...policy });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  target = await serve((_req, res) => {
    res.end('secret');
  });
  redirector = await serve((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
    res.writeHead(302, { Location: to }).end();
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await target.close();
  await redirector.close();
});
beforeEach(() => {
  target.hits.length = 0;
  redirector.hits.length = 0;
});

describe('refusal table (default policy: loopback not allowed)', () => {
  const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const mixed: Resolver = async () => [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ];
  const onlyRedirector = () => ({ allowLoopback: [redirector.port] });
  const rows: Array<[string, () => string, (() => Partial<FetchPolicy>)?]> = [
    ['127.0.0.1', () => `http://127.0.0.1:${target.port}/`],
    ['[::1]', () => `http://[::1]:${target.port}/`],
    ['[::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${target.port}/`],
    ['0.0.0.0', () => `http://0.0.0.0:${target.port}/`],
    ['2130706433 (decimal 127.0.0.1)', () => `http://2130706433:${target.port}/`],
    ['0x7f.1 (hex short form)', () => `http://0x7f.1:${target.port}/`],
    ['169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['10.0.0.1', () => 'http://10.0.0.1/'],
    ['localhost.', () => `http://localhost.:${target.port}/`],
    ['100.64.0.1 (CGNAT)', () => 'http://100.64.0.1/'],
    ['224.0.0.1 (multicast)', () => 'http://224.0.0.1/'],
    ['[fe80::1] (IPv6 link-local)', () => 'http://[fe80::1]/'],
    ['[fd00::1] (IPv6 unique local)', () => 'https://[fd00::1]/'],
    ['[64:ff9b::a00:1] (NAT64 of 10.0.0.1)', () => 'http://[64:ff9b::a00:1]/'],
    ['[::127.0.0.1] (IPv4-compatible loopback)', () => `http://[::127.0.0.1]:${target.port}/`],
    ['[::a9fe:a9fe] (IPv4-compatible cloud metadata)', () => 'http://[::a9fe:a9fe]/'],
    ['[64:ff9b:1::7f00:1] (local-use NAT64)', () => `http://[64:ff9b:1::7f00:1]:${target.port}/`],
    [
      'a host name that resolves to loopback',
      () => `http://internal.example:${target.port}/`,
      () => ({ resolve: toLoopback }),
    ],
    ['a host name with one public and one private address', () => 'http://rebind.example/', () => ({ resolve: mixed })],
    // The redirecting server's own port is allowed so that the test can reach it; its 302 points
    // at another loopback port (a live server), which must be refused.
    [
      'a 302 to loopback',
      () => `http://127.0.0.1:${redirector.port}/?to=${encodeURIComponent(`http://127.0.0.1:${target.port}/`)}`,
      onlyRedirector,
    ],
    [
      'a 302 to a private address',
      () => `http://127.0.0.1:${redirector.port}/?to=${encodeURIComponent('http://10.0.0.1/')}`,
      onlyRedirector,
    ],
  ];

  test.each(rows)('%s is refused', async (_name, url, policy = () => ({})) => {
    const err = await failure(client(policy()), url());
    expect(err.code).toBe('FETCH_ERROR');
    expect(err.reason).toBe('unreachable');
    expect(err.detail).toMatch(/^refused destination: /);
    // a refusal is final: a job never tries it again
    expect(err.transient).toBe(false);
    expect(target.hits).toEqual([]);
  });

  test('a 302 to loopback was answered by the redirector, then refused at the next hop', async () => {
    await failure(
      client(onlyRedirector()),
      `http://127.0.0.1:${redirector.port}/?to=${encodeURIComponent(`http://127.0.0.1:${target.port}/`)}`,
    );
    expect(redirector.hits).toHaveLength(1);
    expect(target.hits).toEqual([]);
  });

  test.each(['file:///etc/passwd', 'ftp://example.com/spec.yaml', 'gopher://127.0.0.1:70/', 'not a url'])(
    '%s is refused as a scheme',
    async (url) => {
      const err = await failure(client(), url);
      expect([err.code, err.reason]).toEqual(['FETCH_ERROR', 'scheme']);
    },
  );
});

describe("single allowed destinations (the development stack's demo servers)", () => {
  const onlyTarget = () => ({ allowDestinations: [{ address: '127.0.0.1', port: target.port }] });

  test('the named address and port is fetched', async () => {
    const answer = await client(onlyTarget()).fetch(`http://127.0.0.1:${target.port}/page`);
    expect([answer.status, answer.body.toString()]).toEqual([200, 'secret']);
  });

  test('another port of the same address, and a redirect from the named one to another, are refused', async () => {
    const other = await failure(client(onlyTarget()), `http://127.0.0.1:${redirector.port}/`);
    expect(other.detail).toMatch(/^refused destination: 127\.0\.0\.1 is a loopback address/);
    const viaRedirect = await failure(
      client({ allowDestinations: [{ address: '127.0.0.1', port: redirector.port }] }),
      `http://127.0.0.1:${redirector.port}/?to=${encodeURIComponent(`http://127.0.0.1:${target.port}/`)}`,
    );
    expect(viaRedirect.detail).toMatch(/^refused destination: /);
    expect(target.hits).toEqual([]);
  });

  test('a name that resolves to the named address stays refused (entries are addresses, never names)', async () => {
    const err = await failure(client(onlyTarget()), `http://localhost:${target.port}/`);
    expect(err.detail).toMatch(/^refused destination: localhost is a loopback name/);
  });
});

describe('with loopback allowed (as in tests)', () => {
  test('fetches a body and follows redirects up to the bound', async () => {
    const c = client({ allowLoopback: true });
    const direct = await c.fetch(`http://127.0.0.1:${target.port}/a`);
    expect([direct.status, direct.body.toString()]).toEqual([200, 'secret']);

    const hop = (to: string) => `http://127.0.0.1:${redirector.port}/?to=${encodeURIComponent(to)}`;
    const threeHops = hop(hop(hop(`http://127.0.0.1:${target.port}/b`)));
    const followed = await c.fetch(threeHops);
    expect([followed.url, followed.body.toString()]).toEqual([`http://127.0.0.1:${target.port}/b`, 'secret']);

    const err = await failure(c, hop(threeHops));
    expect([err.code, err.reason]).toEqual(['FETCH_ERROR', 'redirects']);
  });

  test('loopback stays refused in IPv4-mapped form and private addresses stay refused', async () => {
    const c = client({ allowLoopback: true });
    expect((await failure(c, `http://[::ffff:127.0.0.1]:${target.port}/`)).detail).toMatch(/^refused destination/);
    expect((await failure(c, 'http://10.0.0.1/')).detail).toMatch(/^refused destination/);
    expect(target.hits).toEqual([]);
  });

  test('a server that never answers is FETCH_TIMEOUT', async () => {
    const silent = await serve(() => undefined);
    try {
      const started = Date.now();
      const err = await failure(
        client({ allowLoopback: true, totalTimeoutMs: 300 }),
        `http://127.0.0.1:${silent.port}/`,
      );
      expect([err.code, err.reason]).toEqual(['FETCH_TIMEOUT', 'timeout']);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });

  test('a server that stops mid-body is FETCH_TIMEOUT', async () => {
    const stalling = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
    });
    try {
      const err = await failure(
        client({ allowLoopback: true, totalTimeoutMs: 300 }),
        `http://127.0.0.1:${stalling.port}/`,
      );
      expect(err.code).toBe('FETCH_TIMEOUT');
    } finally {
      await stalling.close();
    }
  });

  test('a 500, a closed port, a DNS failure and an oversized body are FETCH_ERROR', async () => {
    const failing = await serve((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(4096));
      else if (req.url === '/big-chunked') {
        res.write('x'.repeat(800));
        res.end('x'.repeat(800));
      } else res.writeHead(500).end('boom');
    });
    const closed = await serve(() => undefined);
    const closedPort = closed.port;
    await closed.close();
    try {
      const c = client({ allowLoopback: true });
      const status = await failure(c, `http://127.0.0.1:${failing.port}/`);
      expect([status.code, status.reason, status.status]).toEqual(['FETCH_ERROR', 'status', 500]);
      expect((await failure(c, `http://127.0.0.1:${failing.port}/big`)).reason).toBe('size');
      expect((await failure(c, `http://127.0.0.1:${failing.port}/big-chunked`)).reason).toBe('size');
      const refused = await failure(c, `http://127.0.0.1:${closedPort}/`);
      expect([refused.code, refused.reason]).toEqual(['FETCH_ERROR', 'unreachable']);
      expect(refused.detail).toMatch(/ECONNREFUSED/);
      const noDns: Resolver = async () => {
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      };
      const dns = await failure(client({ resolve: noDns }), 'http://nowhere.example/');
      expect([dns.code, dns.reason, dns.detail]).toEqual([
        'FETCH_ERROR',
        'unreachable',
        'nowhere.example: DNS lookup failed (ENOTFOUND)',
      ]);
    } finally {
      await failing.close();
    }
  });

  test('a per-fetch byte limit lowers the policy limit', async () => {
    const c = client({ allowLoopback: true });
    const err = await c.fetch(`http://127.0.0.1:${target.port}/`, { maxBytes: 3 }).catch((e: FetchError) => e);
    expect((err as FetchError).reason).toBe('size');
  });
});

describe('POST (integration event delivery)', () => {
  it('sends the body and headers, answers the 2xx, follows no redirect and honours a shorter time limit', async () => {
    const received: Array<{ method: string; type: string; body: string }> = [];
    const receiver = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          type: req.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString(),
        });
        if (req.url === '/moved') res.writeHead(307, { Location: `http://127.0.0.1:${target.port}/` }).end();
        else if (req.url === '/slow') setTimeout(() => res.end('late'), 500);
        else res.writeHead(202).end('OK');
      });
    });
    try {
      const c = client({ allowLoopback: true });
      const post = (path: string, timeoutMs?: number) =>
        c.fetch(`http://127.0.0.1:${receiver.port}${path}`, {
          method: 'POST',
          body: Buffer.from('{"a":1}'),
          headers: { 'content-type': 'application/json' },
          timeoutMs,
        });
      expect(await post('/v1')).toMatchObject({ status: 202, body: Buffer.from('OK') });
      expect(received[0]).toEqual({ method: 'POST', type: 'application/json', body: '{"a":1}' });
      const moved = (await post('/moved').catch((e: unknown) => e)) as FetchError;
      expect({ reason: moved.reason, status: moved.status }).toEqual({ reason: 'status', status: 307 });
      expect(target.hits).toEqual([]);
      const slow = (await post('/slow', 100).catch((e: unknown) => e)) as FetchError;
      expect({ reason: slow.reason, message: slow.message }).toEqual({
        reason: 'timeout',
        message: expect.stringContaining('within 100 ms'),
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('a refused or unreachable destination is told apart only in the log', () => {
  /** What the client logged, as pino would write it. */
  function logged(): { lines: Array<Record<string, unknown>>; logger: pino.Logger } {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    return { lines, logger };
  }
  const resolver: Resolver = async (host) => {
    if (host === 'vm') return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'db.internal') return [{ address: '10.1.2.3', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

  test('a name resolving to loopback or to a private address, one that does not resolve, a closed port: one message, one reason, no address, resolution or errno', async () => {
    const { lines, logger } = logged();
    const c = new GuardedFetch({ ...basePolicy, resolve: resolver }, { logger });
    clients.push(c);
    const closed = await serve(() => undefined);
    await closed.close();
    const loose = new GuardedFetch({ ...basePolicy, allowLoopback: true }, { logger });
    clients.push(loose);
    const urls: Array<[GuardedFetch, string]> = [
      [c, 'http://vm/'],
      [c, 'http://db.internal:8080/'],
      [c, 'http://nowhere.internal/'],
      [c, `http://127.0.0.1:${target.port}/`],
      [loose, `http://127.0.0.1:${closed.port}/`],
    ];
    for (const [client, url] of urls) {
      const err = await failure(client, url);
      // the URL asked for, then the same words whatever happened: no address, resolution or errno
      expect([err.code, err.reason, err.message]).toEqual([
        'FETCH_ERROR',
        'unreachable',
        `${url}: the destination is not allowed or could not be reached`,
      ]);
    }
    // the detail is in the log, with the destination it is about
    expect(lines.map((l) => [l.destination, l.detail])).toEqual([
      ['vm', 'refused destination: vm resolves to a loopback address (127.0.0.1)'],
      ['db.internal:8080', 'refused destination: db.internal resolves to a private address (10.1.2.3)'],
      ['nowhere.internal', 'nowhere.internal: DNS lookup failed (ENOTFOUND)'],
      [`127.0.0.1:${target.port}`, 'refused destination: 127.0.0.1 is a loopback address'],
      [`127.0.0.1:${closed.port}`, expect.stringContaining('ECONNREFUSED')],
    ]);
    expect(lines.every((l) => l.level === 40 && l.msg === 'outbound fetch failed')).toBe(true);
    expect(target.hits).toEqual([]);
  });

  test('a DNS server that does not answer is a timeout like any other, its detail in the log', async () => {
    const { lines, logger } = logged();
    const silent: Resolver = () => new Promise(() => undefined);
    const c = new GuardedFetch({ ...basePolicy, connectTimeoutMs: 100, resolve: silent }, { logger });
    clients.push(c);
    const err = await failure(c, 'http://slow.internal/');
    expect([err.code, err.message]).toEqual([
      'FETCH_TIMEOUT',
      'http://slow.internal/: no complete answer within 1500 ms',
    ]);
    expect(lines.map((l) => l.detail)).toEqual(['slow.internal: DNS did not answer within 100 ms']);
  });
});
