/**
 * The one client for every server-side fetch of a URL a user supplied: http(s) only,
 * each destination checked after DNS resolution and again on the socket actually connected, every
 * redirect hop checked the same way, bounded redirects, connect and total time, and body size.
 *
 * The check lives in the undici connector, so nothing reaches the network unchecked: IP literals are
 * refused before connecting, host names are resolved here (by an injectable resolver) and only their
 * allowed addresses are dialled, and the connected socket's remote address is checked once more.
 */
import { promises as dns } from 'dns';
import { isIP, Socket } from 'net';
import type { Logger } from 'pino';
import { Agent, buildConnector, Dispatcher, request, errors as undiciErrors } from 'undici';
import { AllowedDestination, isLocalhostName, LoopbackAllowance, refusalReason } from './address-policy';
import { FetchError } from './fetch-error';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to its addresses; tests inject one to make a name point anywhere. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The guard's policy, owned by one client instance. */
export interface FetchPolicy {
  allowLoopback: LoopbackAllowance;
  /** single addresses and ports allowed whatever their range (the development stack's demo servers) */
  allowDestinations?: readonly AllowedDestination[];
  maxRedirects: number;
  connectTimeoutMs: number;
  /** the whole fetch: every hop, headers and body */
  totalTimeoutMs: number;
  maxBytes: number;
  resolve?: Resolver;
}

export interface FetchOptions {
  /** a lower body limit for this fetch than the policy's */
  maxBytes?: number;
  headers?: Record<string, string>;
  /** aborts the fetch (as a FETCH_ERROR), e.g. when the job is cancelled */
  signal?: AbortSignal;
  /** POST sends `body` and follows no redirect (a 3xx is a non-2xx answer); GET by default */
  method?: 'GET' | 'POST';
  body?: Buffer;
  /** a shorter total time for this fetch than the policy's */
  timeoutMs?: number;
}

export interface FetchedResponse {
  /** the URL finally answered, after redirects */
  url: string;
  status: number;
  contentType: string | null;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** All a caller learns of a refused, unresolved or unanswering destination (fetch-error.ts says why). */
const UNREACHABLE = 'the destination is not allowed or could not be reached';

/** `transient`: a failure that may pass (a DNS hiccup, a failed connection), unlike a refusal or a name that does not exist. */
function unreachable(detail: string, transient = false): FetchError {
  return new FetchError('unreachable', UNREACHABLE, { detail, transient });
}

/** Lookup errors of a name that does not exist or has no address; any other lookup error may pass. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The addresses of `host` that the policy lets us dial, or a refusal when any of them is forbidden. */
async function allowedAddresses(host: string, port: number, policy: FetchPolicy): Promise<string[]> {
  if (isIP(host)) {
    const reason = refusalReason(host, port, policy.allowLoopback, policy.allowDestinations);
    if (reason) throw unreachable(`refused destination: ${reason}`);
    return [host];
  }
  if (isLocalhostName(host) && policy.allowLoopback === false)
    throw unreachable(`refused destination: ${host} is a loopback name`);
  const resolve = policy.resolve ?? systemResolver;
  let resolved: ResolvedAddress[];
  try {
    resolved = await withTimeout(
      resolve(host.replace(/\.$/, '')),
      policy.connectTimeoutMs,
      () =>
        new FetchError('timeout', 'DNS did not answer', {
          detail: `${host}: DNS did not answer within ${policy.connectTimeoutMs} ms`,
        }),
    );
  } catch (err) {
    if (err instanceof FetchError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw unreachable(`${host}: DNS lookup failed (${code ?? (err as Error).message})`, !NO_SUCH_NAME.has(code ?? ''));
  }
  if (resolved.length === 0) throw unreachable(`${host}: DNS lookup found no address`);
  // One forbidden address refuses the name: a rebinding name may hand out both kinds.
  for (const { address } of resolved) {
    const reason = refusalReason(address, port, policy.allowLoopback, policy.allowDestinations);
    if (reason)
      throw unreachable(`refused destination: ${host} resolves to ${reason.replace(/^\S+ is /, '')} (${address})`);
  }
  return resolved.map((r) => r.address);
}

function guardedConnector(policy: FetchPolicy): buildConnector.connector {
  const dial = buildConnector({ timeout: policy.connectTimeoutMs });
  const connectTo = (options: buildConnector.Options, address: string) =>
    new Promise<Socket>((resolve, reject) =>
      dial({ ...options, hostname: address }, (err, socket) => (err ? reject(err) : resolve(socket as Socket))),
    );

  async function connect(options: buildConnector.Options): Promise<Socket> {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    let lastError: unknown = unreachable(`${host}: no address to connect to`);
    for (const address of await allowedAddresses(host, port, policy)) {
      let socket: Socket;
      try {
        socket = await connectTo(options, address);
      } catch (err) {
        lastError = err;
        continue;
      }
      const reason = refusalReason(socket.remoteAddress ?? '', port, policy.allowLoopback, policy.allowDestinations);
      if (reason) {
        socket.destroy();
        throw unreachable(`refused destination: connected to ${reason}`);
      }
      return socket;
    }
    throw lastError;
  }

  return (options, callback) => {
    connect(options).then(
      (socket) => callback(null, socket),
      (err: Error) => callback(err, null),
    );
  };
}

function isTimeout(err: unknown): boolean {
  return (
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError
  );
}

/**
 * The error a caller gets for what a fetch of `url` threw: the guard's own errors as they are, a timeout
 * and any refusal, DNS or network failure in words that name no address, resolution or errno (kept in `detail`).
 */
function callerError(err: unknown, url: string, timedOut: boolean, timeoutMs: number): FetchError {
  const ours = err instanceof FetchError ? err : null;
  if (timedOut || isTimeout(err) || ours?.reason === 'timeout')
    return new FetchError('timeout', `${url}: no complete answer within ${timeoutMs} ms`, { detail: ours?.detail });
  if (ours && ours.reason !== 'unreachable') return ours;
  // not ours: the connection failed or broke
  return new FetchError('unreachable', `${url}: ${UNREACHABLE}`, {
    detail: ours?.detail ?? describe(err),
    transient: ours?.transient ?? true,
  });
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const message = (err as Error).message ?? String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export interface GuardedFetchOptions {
  /** where the detail of a refused or unreachable destination goes, since its error keeps it from callers */
  logger?: Logger;
}

export class GuardedFetch {
  private readonly agent: Agent;

  constructor(
    readonly policy: FetchPolicy,
    private readonly options: GuardedFetchOptions = {},
  ) {
    this.agent = new Agent({
      connect: guardedConnector(policy),
      headersTimeout: policy.totalTimeoutMs,
      bodyTimeout: policy.totalTimeoutMs,
    });
  }

  /**
   * GETs `url`, following redirects (or POSTs `body` to it, following none), and answers the final
   * 2xx response with its body. Any failure is a FetchError: `timeout` (FETCH_TIMEOUT) when the total or connect time ran out, otherwise
   * FETCH_ERROR (unreachable: a refused destination, DNS or network; bad scheme, non-2xx status, size, too many redirects).
   */
  async fetch(url: string, options: FetchOptions = {}): Promise<FetchedResponse> {
    const maxBytes = Math.min(options.maxBytes ?? this.policy.maxBytes, this.policy.maxBytes);
    const timeoutMs = Math.min(options.timeoutMs ?? this.policy.totalTimeoutMs, this.policy.totalTimeoutMs);
    const method = options.method ?? 'GET';
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
    let current = url;
    try {
      for (let hop = 0; ; hop++) {
        const target = parseTarget(current);
        const res = await request(target, {
          method,
          body: options.body,
          dispatcher: this.agent,
          signal,
          headers: { 'user-agent': 'docs-platform-fetch/1', accept: '*/*', ...options.headers },
        });
        const location = res.headers.location;
        if (method === 'GET' && REDIRECTS.has(res.statusCode) && typeof location === 'string') {
          await res.body.dump();
          if (hop >= this.policy.maxRedirects)
            throw new FetchError('redirects', `${url}: more than ${this.policy.maxRedirects} redirects`);
          current = new URL(location, target).href;
          continue;
        }
        if (res.statusCode < 200 || res.statusCode > 299) {
          await res.body.dump();
          const retryAfter = res.headers['retry-after'];
          throw new FetchError('status', `${current}: answered HTTP ${res.statusCode}`, {
            status: res.statusCode,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
          });
        }
        const body = await readLimited(res.body, maxBytes, current, res.headers['content-length']);
        const contentType = res.headers['content-type'];
        return {
          url: current,
          status: res.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          body,
        };
      }
    } catch (err) {
      const failure = callerError(err, current, timedOut, timeoutMs);
      if (failure.detail && !options.signal?.aborted)
        this.options.logger?.warn(
          { destination: new URL(current).host, reason: failure.reason, detail: failure.detail },
          'outbound fetch failed',
        );
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function parseTarget(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FetchError('scheme', `${url}: not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new FetchError('scheme', `${url}: only http and https URLs can be fetched`);
  return parsed;
}

type ResponseBody = Dispatcher.ResponseData['body'];

async function readLimited(
  body: ResponseBody,
  maxBytes: number,
  url: string,
  declared: string | string[] | undefined,
): Promise<Buffer> {
  const tooLarge = () => new FetchError('size', `${url}: body larger than ${maxBytes} bytes`);
  if (typeof declared === 'string' && Number(declared) > maxBytes) {
    // closes the connection without reading; the abort it reports is expected
    body.on('error', () => undefined).destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    // leaving the loop closes the body
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
