import { readFileSync } from 'fs';
import ipaddr from 'ipaddr.js';
import * as path from 'path';
import { AllowedDestination, parseDestination } from './net/address-policy';

/** The longest the API may remember a live token: a revocation reaches every replica within it. */
export const TOKEN_CACHE_MAX_MS = 1000;

/**
 * A setting's raw value: its variable, or the content of the file that NAME_FILE names (a secret an
 * orchestrator mounts), without the trailing newline. Both at once is refused: which should win is a guess.
 */
function setting(name: string): string | undefined {
  const value = process.env[name];
  const file = process.env[`${name}_FILE`];
  if (file === undefined || file === '') return value;
  if (value !== undefined && value !== '') throw new Error(`${name} and ${name}_FILE: set one of them, not both`);
  try {
    return readFileSync(file, 'utf8').replace(/(\r?\n)+$/, '');
  } catch (err) {
    throw new Error(`${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** Every setting the service reads, from environment variables (or NAME_FILE), with its default. README lists each one. */
function str(name: string, fallback: string): string {
  const v = setting(name);
  return v === undefined || v === '' ? fallback : v;
}
function int(name: string, fallback: number): number {
  const raw = setting(name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: must be a non-negative integer, got "${raw}"`);
  return n;
}

function atMost(name: string, fallback: number, max: number): number {
  const n = int(name, fallback);
  if (n > max) throw new Error(`${name}: must be at most ${max}, got "${n}"`);
  return n;
}

/** Express's own names for address ranges (proxy-addr). */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Express's `trust proxy`: false (no proxy: the socket's address is the client's), a hop count, or the
 * proxies' addresses and CIDR ranges. `true` (every hop) is refused: any client could name its own address.
 */
function trustProxy(name: string): false | number | string[] {
  const raw = str(name, '').trim();
  if (raw === '') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((e) => e.trim());
  const wrong = entries.find((e) => !PROXY_RANGES.has(e) && !ipaddr.isValid(e) && !ipaddr.isValidCIDR(e));
  if (wrong !== undefined)
    throw new Error(
      `${name}: must be a hop count or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal, got "${wrong}"`,
    );
  return entries;
}

/** Comma-separated `address:port` entries (`127.0.0.1:8765`, `[::1]:8765`) that the guarded fetch lets through. */
function destinations(name: string): AllowedDestination[] {
  const entries = str(name, '')
    .split(',')
    .filter((e) => e.trim() !== '');
  return entries.map((entry) => {
    const destination = parseDestination(entry);
    if (!destination)
      throw new Error(
        `${name}: each entry must be an IP address and a port (127.0.0.1:8765, [::1]:8765), got "${entry}"`,
      );
    return destination;
  });
}

function bool(name: string): boolean {
  const v = setting(name);
  return v === 'true' || v === '1';
}

/** A switch with a default, spelled true/1 or false/0; anything else is refused rather than read as off. */
function flag(name: string, fallback: boolean): boolean {
  const v = str(name, fallback ? 'true' : 'false');
  if (v !== 'true' && v !== '1' && v !== 'false' && v !== '0')
    throw new Error(`${name}: must be true or false, got "${v}"`);
  return v === 'true' || v === '1';
}

/**
 * A signing secret. It has no default: a value printed in the README would let anyone sign download
 * links and cursors. `npm start` and `npm test` generate one into .data/secrets.env (scripts/lib.sh).
 * Read when present even if not `needed`, and then checked all the same.
 */
function secret(name: string, needed = true): string {
  const v = setting(name) ?? '';
  if (!v && !needed) return '';
  if (!v)
    throw new Error(
      `${name}: is required (a random secret of at least 32 characters; npm start generates one into .data/secrets.env)`,
    );
  if (v.length < 32) throw new Error(`${name}: must be at least 32 characters`);
  return v;
}

/** A credential the service presents to a dependency: no default either, required only where it is used. */
function credential(name: string, needed: boolean): string {
  const v = setting(name) ?? '';
  if (!v && needed) throw new Error(`${name}: is required`);
  return v;
}

/**
 * Keys in order, separated by commas or new lines: the first encrypts, each may decrypt (what the previous
 * first key wrote stays readable until `cli secrets rotate` re-encrypted it). Each is a secret().
 */
function keyRing(name: string): string[] {
  const keys = secret(name)
    .split(/[\s,]+/)
    .filter(Boolean);
  keys.forEach((key, i) => {
    if (key.length < 32) throw new Error(`${name}: must be at least 32 characters (key ${i + 1} of ${keys.length})`);
  });
  return keys;
}

/** A PEM certificate or key (given as the text, or as the file NAME_FILE names); '' when unset. */
function pem(name: string): string {
  const v = setting(name) ?? '';
  if (v && !v.includes('-----BEGIN '))
    throw new Error(`${name}: must be PEM text (-----BEGIN …); to name a file, set ${name}_FILE`);
  return v;
}

/** A client certificate and its key go together. */
function clientCertificate(prefix: string): { cert: string; key: string } {
  const cert = pem(`${prefix}_CERT`);
  const key = pem(`${prefix}_KEY`);
  if (!cert !== !key)
    throw new Error(`${prefix}_CERT and ${prefix}_KEY: set both (a client certificate and its key) or neither`);
  return { cert, key };
}

/**
 * TLS towards MySQL (platform/db/data-source.ts): on with MYSQL_TLS or any certificate; null when off.
 * The server's certificate is verified (chain and host name) unless MYSQL_TLS_VERIFY_SERVER=false.
 */
function mysqlTls() {
  const ca = pem('MYSQL_TLS_CA');
  const client = clientCertificate('MYSQL_TLS');
  // a security switch spelled wrong (`yes`) stops the process rather than leaving TLS off
  if (!flag('MYSQL_TLS', false) && !ca && !client.cert) return null;
  return { ca, ...client, verifyServer: flag('MYSQL_TLS_VERIFY_SERVER', true) };
}

/** The database settings alone: all the operator CLI and the migrations need. */
export function loadDatabaseConfig() {
  return {
    mysql: {
      /** mariadb here, mysql for MySQL 8: TypeORM reads the schema differently for each. */
      flavor: str('MYSQL_FLAVOR', 'mariadb') === 'mysql' ? ('mysql' as const) : ('mariadb' as const),
      host: str('MYSQL_HOST', '127.0.0.1'),
      port: int('MYSQL_PORT', 3407),
      user: str('MYSQL_USER', 'docs'),
      password: str('MYSQL_PASSWORD', 'docs'),
      database: str('MYSQL_DATABASE', 'docs'),
      poolSize: int('MYSQL_POOL_SIZE', 20),
      /** A new connection's handshake at most (a server that accepts and never answers). */
      connectTimeoutMs: Math.max(1, int('MYSQL_CONNECT_TIMEOUT_MS', 5000)),
      /** The API and the worker wait this long at most for a free connection of the pool (platform/deadline.ts). */
      acquireTimeoutMs: Math.max(1, int('MYSQL_ACQUIRE_TIMEOUT_MS', 10_000)),
      /** One statement of the API or the worker at most; past it its connection is closed (its transaction rolls back). */
      statementTimeoutMs: Math.max(1, int('MYSQL_STATEMENT_TIMEOUT_MS', 60_000)),
      tls: mysqlTls(),
    },
  };
}

function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const v = str(name, fallback);
  if (!(values as readonly string[]).includes(v))
    throw new Error(`${name}: must be one of ${values.join(', ')}, got "${v}"`);
  return v as T;
}

/**
 * TLS towards Temporal (platform/temporal/connection.ts): on with TEMPORAL_TLS, any of its settings
 * or an API key (Temporal Cloud takes API keys over TLS only); null when off.
 */
function temporalTls(apiKey: string) {
  const ca = pem('TEMPORAL_TLS_CA');
  const client = clientCertificate('TEMPORAL_TLS');
  const serverName = str('TEMPORAL_TLS_SERVER_NAME', '');
  if (!flag('TEMPORAL_TLS', false) && !ca && !client.cert && !serverName && !apiKey) return null;
  return { ca, ...client, serverName };
}

/** The Temporal settings alone: all the namespace preparation of `npm start` and the CLI need. */
export function loadTemporalConfig() {
  const apiKey = credential('TEMPORAL_API_KEY', false);
  return {
    temporal: {
      address: str('TEMPORAL_ADDRESS', '127.0.0.1:7233'),
      tls: temporalTls(apiKey),
      /** Temporal Cloud's API key (sent as a bearer token); '' for none. */
      apiKey,
      namespace: str('TEMPORAL_NAMESPACE', 'default'),
      taskQueue: str('TEMPORAL_TASK_QUEUE', 'docs-platform'),
      /** The CPU-heavy steps' queue (PDF rendering, import staging); unset: `<taskQueue>-heavy` (worker/task-queues.ts). */
      heavyTaskQueue: str('TEMPORAL_HEAVY_TASK_QUEUE', ''),
      /** One call of the API's Temporal client at most (a wait for a run's result sets its own). */
      callTimeoutMs: Math.max(1, int('TEMPORAL_CALL_TIMEOUT_MS', 10_000)),
    },
  };
}

/** The queue of the CPU-heavy steps: TEMPORAL_HEAVY_TASK_QUEUE, else the main queue's name with `-heavy`. */
export function heavyTaskQueueOf(temporal: TemporalConfig['temporal']): string {
  return temporal.heavyTaskQueue || `${temporal.taskQueue}-heavy`;
}

/** The job machinery's settings alone (no secrets): the worker's and API's, and the operator CLI's `jobs retry`. */
export function loadJobsConfig() {
  return {
    /** How long a deleted space can be restored before its purge is due (`cli jobs watch` shows when). */
    spaceRetentionSeconds: int('SPACE_RETENTION_SECONDS', 7 * 24 * 3600),
    /** The job machinery (domain/jobs/kinds.ts); tests run every wait short. */
    jobs: {
      /** Period of the reconciler Schedule, and the grace before it considers a requested run's start lost. */
      reconcileIntervalSeconds: int('RECONCILE_INTERVAL_SECONDS', 60),
      /** Period of the cleanup Schedule that removes what the job kinds' retention let expire. */
      cleanupIntervalSeconds: int('JOB_CLEANUP_INTERVAL_SECONDS', 3600),
      /**
       * A job whose history grows with its data (import batches, translation steps, purge batches) continues as new
       * once its workflow history has this many events, so no history grows without bound.
       */
      historyMaxEvents: Math.max(1, int('JOB_HISTORY_MAX_EVENTS', 2000)),
      /** Retry policy of every job activity: exponential back-off for as long as its kind's retryBudgetMs. */
      retry: {
        initialIntervalMs: int('JOB_RETRY_INITIAL_MS', 1000),
        maximumIntervalMs: int('JOB_RETRY_MAX_MS', 60_000),
        /** also bounds the attempts (tests); 0: only the budget does */
        maximumAttempts: Math.max(0, int('JOB_RETRY_MAX_ATTEMPTS', 0)),
        /** Every long activity heartbeats (activities/heartbeat.ts): an attempt silent this long is retried elsewhere (a worker died). */
        heartbeatTimeoutMs: Math.max(1000, int('JOB_HEARTBEAT_TIMEOUT_MS', 30_000)),
        /** How long a run's bookkeeping (begin, finish, fail) retries through a database outage. */
        bookkeepingBudgetMs: Math.max(60_000, int('JOB_BOOKKEEPING_BUDGET_MS', 6 * 3600 * 1000)),
      },
    },
  };
}

/** The key ring of integrations' stored secrets alone: the CLI's `secrets rotate` needs it (domain/integrations/secrets.ts). */
export function loadIntegrationSecretsKeys(): string[] {
  return keyRing('INTEGRATION_SECRETS_KEY');
}

/** The API's own address, which event payloads link to (a CLI that writes reads it too). */
export function loadPublicBaseUrl() {
  return { publicBaseUrl: str('PUBLIC_BASE_URL', `http://127.0.0.1:${int('PORT', 8080)}`) };
}

export function loadConfig() {
  const port = int('PORT', 8080);
  const blobStore = str('BLOB_STORE', 'local') === 's3' ? ('s3' as const) : ('local' as const);
  return {
    port,
    host: str('HOST', '127.0.0.1'),
    /** The reverse proxies whose X-Forwarded-For gives the client's address (the per-address rate limit, req.ip). */
    trustProxy: trustProxy('TRUST_PROXY'),
    ...loadPublicBaseUrl(),
    appBaseUrl: str('APP_BASE_URL', 'https://app.docs.example'),
    publishedBaseUrl: str('PUBLISHED_BASE_URL', 'https://docs.example'),
    ...loadDatabaseConfig(),
    ...loadTemporalConfig(),
    blobs: {
      /** local (a folder, URLs signed and served by the API) or s3 */
      backend: blobStore,
      dir: str('BLOB_DIR', path.resolve(process.cwd(), '.data', 'blobs')),
      urlSecret: secret('BLOB_URL_SECRET', blobStore === 'local'),
      urlTtlSeconds: int('BLOB_URL_TTL_SECONDS', 3600),
      fileMaxBytes: int('FILE_MAX_BYTES', 25 * 1024 * 1024),
      /** any S3-compatible server, addressed path-style; the defaults are the scripts' versitygw (its keys come from lib.sh) */
      s3: {
        endpoint: str('S3_ENDPOINT', 'http://127.0.0.1:7070'),
        /** where clients reach the server, for presigned URLs (differs from S3_ENDPOINT behind Docker's network) */
        publicEndpoint: str('S3_PUBLIC_ENDPOINT', str('S3_ENDPOINT', 'http://127.0.0.1:7070')),
        region: str('S3_REGION', 'us-east-1'),
        bucket: str('S3_BUCKET', 'docs-blobs'),
        accessKeyId: credential('S3_ACCESS_KEY_ID', blobStore === 's3'),
        secretAccessKey: credential('S3_SECRET_ACCESS_KEY', blobStore === 's3'),
      },
    },
    purgeBatchSize: int('PURGE_BATCH_SIZE', 500),
    ...loadJobsConfig(),
    cursorSecret: secret('CURSOR_SECRET'),
    /** Lifetime of the API tokens handed to an integration with each event (domain/integrations/tokens.ts). */
    integrationTokenTtlSeconds: Math.max(1, int('INTEGRATION_TOKEN_TTL_SECONDS', 3600)),
    /** Live (unrevoked, unexpired) API tokens a user may hold; issuing one more is a 409 (domain/auth/tokens.ts). */
    maxLiveTokensPerUser: Math.max(1, int('API_TOKENS_MAX_PER_USER', 100)),
    /** Longest lifetime (exp after iat, or after now without iat) of a site's visitor token (domain/sites/publishing-auth.ts). */
    visitorTokenMaxLifetimeSeconds: Math.max(1, int('VISITOR_TOKEN_MAX_LIFETIME_SECONDS', 7 * 24 * 3600)),
    /** How long the API may remember a live token and its caller's roles (domain/auth/live-token-cache.ts); 0: never. */
    tokenCacheMs: atMost('TOKEN_CACHE_MS', 1000, TOKEN_CACHE_MAX_MS),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024),
    /** A request unanswered this long after it arrived answers 503 with Retry-After; what it waits on is bounded by it (api/middleware/deadline.ts). */
    requestTimeoutMs: Math.max(1000, int('REQUEST_TIMEOUT_MS', 30_000)),
    /** How long an `Idempotency-Key` and the answer it replays are kept (domain/idempotency/keys.ts); the cleanup Schedule removes them after. */
    idempotencyKeyTtlSeconds: Math.max(60, int('IDEMPOTENCY_KEY_TTL_SECONDS', 24 * 3600)),
    /** Each check of GET /readyz (MySQL, Temporal, the blob store) at most: past it the check fails. */
    readyCheckTimeoutMs: Math.max(1, int('READYZ_CHECK_TIMEOUT_MS', 1500)),
    /** On SIGTERM the API answers /readyz 503 this long before it stops accepting connections and drains (at most 15 s). */
    apiShutdownDelaySeconds: int('API_SHUTDOWN_DELAY_SECONDS', 5),
    logLevel: str('LOG_LEVEL', 'info'),
    /** which requests the API logs, one line each: every one, those answered 400 and above, or none */
    logRequests: oneOf('LOG_REQUESTS', ['all', 'errors', 'none'] as const, 'all'),
    /** The worker's queues, concurrency and shutdown (worker/task-queues.ts, docs/deploy.md). */
    worker: {
      /** Which queues this worker polls: `main` (workflows and every other step), `heavy`, or both. */
      queues: workerQueues('WORKER_TASK_QUEUES'),
      /** Activities run at once on the main queue; 0: what the MySQL pool leaves once the heavy queue's are counted. */
      maxConcurrentActivities: int('WORKER_MAX_CONCURRENT_ACTIVITIES', 0),
      heavyMaxConcurrentActivities: Math.max(1, int('WORKER_HEAVY_MAX_CONCURRENT_ACTIVITIES', 2)),
      /** On SIGTERM: how long running activities may finish before they are cancelled (they stop at their next heartbeat). */
      shutdownGraceSeconds: int('WORKER_SHUTDOWN_GRACE_SECONDS', 30),
      /** On SIGTERM: the worker exits (1) at the latest this long after it, whatever still runs. */
      shutdownForceSeconds: int('WORKER_SHUTDOWN_FORCE_SECONDS', 45),
    },
    /** Prometheus metrics (GET /metrics) on listeners of their own, off the public port (docs/decisions.md). */
    metrics: {
      host: str('METRICS_HOST', str('HOST', '127.0.0.1')),
      apiPort: int('METRICS_PORT', 9464),
      workerPort: int('WORKER_METRICS_PORT', 9465),
      /** The Temporal SDK's own exporter, on 127.0.0.1 only: the worker's /metrics includes what it reports. */
      temporalPort: int('TEMPORAL_METRICS_PORT', 9466),
    },
    /** Requests per token, user, organization and (without a token) client address in each window, counted in MySQL for every replica (platform/rate-limits); 0: no limit. */
    rateLimits: {
      windowSeconds: Math.max(1, int('RATE_LIMIT_WINDOW_SECONDS', 60)),
      perToken: int('RATE_LIMIT_PER_TOKEN', 3000),
      /** all tokens of one user together: minting more tokens buys no more requests */
      perUser: int('RATE_LIMIT_PER_USER', 6000),
      perOrganization: int('RATE_LIMIT_PER_ORGANIZATION', 10000),
      /** the operations reachable without a token (integration scripts and assets, public OpenAPI documents, blob downloads), per client address */
      perAddress: int('RATE_LIMIT_PER_ADDRESS', 1200),
      /** Most hits a replica leases from a counter at once (1: every request asks the database). */
      maxLease: Math.max(1, int('RATE_LIMIT_MAX_LEASE', 100)),
    },
    /** the guarded client for user-supplied URLs (platform/net); loopback is for local development and tests only */
    fetch: {
      allowLoopback: bool('FETCH_ALLOW_LOOPBACK'),
      allowDestinations: destinations('FETCH_ALLOW_DESTINATIONS'),
      maxRedirects: int('FETCH_MAX_REDIRECTS', 5),
      connectTimeoutMs: int('FETCH_CONNECT_TIMEOUT_MS', 5000),
      totalTimeoutMs: int('FETCH_TIMEOUT_MS', 30000),
      maxBytes: int('FETCH_MAX_BYTES', 25 * 1024 * 1024),
    },
    /** Delivery of integration events to development tunnels (domain/integrations/delivery.ts) */
    integrationDispatch: {
      /** One POST to the tunnel, answer included. */
      timeoutMs: Math.max(1, int('INTEGRATION_DISPATCH_TIMEOUT_MS', 10_000)),
      /** POSTs of one event at most: the first and its retries (on 5xx, 429 and network errors). */
      maxAttempts: Math.max(1, int('INTEGRATION_DISPATCH_MAX_ATTEMPTS', 4)),
      /** Back-off before the first retry, doubled for each next one (with jitter), at most maxBackoffMs. */
      backoffMs: Math.max(1, int('INTEGRATION_DISPATCH_BACKOFF_MS', 1000)),
      maxBackoffMs: Math.max(1, int('INTEGRATION_DISPATCH_MAX_BACKOFF_MS', 60_000)),
      /** How long an event whose delivery ended is kept (listed, with its trace). */
      retentionSeconds: int('INTEGRATION_EVENT_RETENTION_SECONDS', 30 * 24 * 3600),
    },
    /** OpenAPI specifications (domain/openapi-specs) */
    openapi: {
      /** Period of the Schedule that re-processes every URL-sourced spec (an unchanged one adds no version). */
      refreshIntervalSeconds: int('OPENAPI_REFRESH_INTERVAL_SECONDS', 6 * 3600),
      /** Versions kept per spec; saving a newer one removes the oldest beyond it, blobs included. */
      versionsKept: Math.max(1, int('OPENAPI_VERSIONS_KEPT', 20)),
      /**
       * Bytes of a bundle, serialized, at most: a larger one fails PARSE_ERROR, and a stored one over it is never
       * read back. The files external `$ref`s name may hold as many bytes together.
       */
      bundleMaxBytes: Math.max(1024, int('OPENAPI_BUNDLE_MAX_BYTES', 5 * 1024 * 1024)),
    },
    /** Content import from a URL (domain/imports) */
    imports: {
      /** How long `POST {content}/import` awaits the import before answering 202 with its import run. */
      waitSeconds: int('IMPORT_WAIT_SECONDS', 50),
      /** Pages a website crawl fetches at most (and pages of an archive). */
      maxPages: Math.max(1, int('IMPORT_MAX_PAGES', 10_000)),
      /** Links followed from the start page at most. */
      maxDepth: int('IMPORT_MAX_DEPTH', 10),
      /** Bytes one import reads at most: pages and images fetched, or the unpacked archive (10,000 pages with their images). */
      maxBytes: Math.max(1, int('IMPORT_MAX_BYTES', 1024 * 1024 * 1024)),
      /** Files an archive may hold at most (a zip bomb of many tiny entries stops here): 10,000 pages, an image each, their folders. */
      maxArchiveEntries: Math.max(1, int('IMPORT_MAX_ARCHIVE_ENTRIES', 30_000)),
      /** Fetches one crawl runs at once. */
      concurrency: Math.max(1, int('IMPORT_CONCURRENCY', 8)),
      /** Pages one crawl activity fetches before it saves its state and reports progress. */
      batchPages: Math.max(1, int('IMPORT_BATCH_PAGES', 50)),
      /** How long a finished import run is kept (listed and readable). */
      retentionSeconds: int('IMPORT_RETENTION_SECONDS', 30 * 24 * 3600),
    },
    /** PDF exports of change requests (domain/pdf) */
    pdf: {
      /** How long the API awaits a render before answering 202 with Retry-After. */
      waitSeconds: int('PDF_WAIT_SECONDS', 25),
      /** The Retry-After of that 202. */
      retryAfterSeconds: Math.max(1, int('PDF_RETRY_AFTER_SECONDS', 5)),
      /** Lifetime of the signed URL of a PDF (GitBook documents one hour). */
      urlTtlSeconds: Math.max(1, int('PDF_URL_TTL_SECONDS', 3600)),
      /** A PDF not asked for during this long (and at least the URL lifetime) is removed with its file. */
      retentionSeconds: int('PDF_RETENTION_SECONDS', 24 * 3600),
      /** Sheets of one PDF at most (each holds ~40 KB of the worker's heap until the file is written): beyond, PDF_TOO_LARGE. */
      maxSheets: Math.max(3, int('PDF_MAX_SHEETS', 25_000)),
      /** Bytes of one PDF at most, and of the markdown it is made of: beyond, PDF_TOO_LARGE. */
      maxBytes: Math.max(1024, int('PDF_MAX_BYTES', 100 * 1024 * 1024)),
    },
    /** Integrations (domain/integrations) */
    integrations: {
      /** Key material of the AES-256-GCM encryption of integrations' secrets, newest first: required, like the signing secrets. */
      secretsKeys: loadIntegrationSecretsKeys(),
      /** Largest publish body: the script, the icon and the preview images travel inline (base64). */
      publishMaxBytes: Math.max(1024, int('INTEGRATION_PUBLISH_MAX_BYTES', 16 * 1024 * 1024)),
    },
    /** Translations (domain/translations): the provider, its endpoint and key, batching, pacing and retries. */
    translation: translationConfig(),
    /** Invitation mail and the first-token links it carries (domain/invites, platform/mail). */
    mail: mailConfig(),
  };
}

/**
 * SMTP towards the mail server (platform/mail/smtp.ts): `smtp://` (STARTTLS when the server offers it) or `smtps://`
 * (TLS from the start), credentials in the URL; '' sends no mail. Checked here, so a wrong value stops the process.
 */
function mailConfig() {
  const smtpUrl = credential('SMTP_URL', false);
  if (smtpUrl && !/^smtps?:\/\/[^/?#]+\/?$/.test(smtpUrl))
    throw new Error('SMTP_URL: must be smtp://[user:password@]host[:port] or smtps://…');
  const from = str('MAIL_FROM', 'Docs Platform <no-reply@docs.example>');
  if (/[\r\n]/.test(from) || !/@[^@\s>]+>?$/.test(from))
    throw new Error('MAIL_FROM: must be one address ("Name <box@host>" or box@host) on one line');
  return {
    smtpUrl,
    from,
    /** Refuse to send unless STARTTLS succeeds (an smtp:// URL); smtps:// is always TLS. */
    requireTls: flag('SMTP_REQUIRE_TLS', false),
    /** The server's certificate is verified (chain and host name) unless false. */
    tlsVerifyServer: flag('SMTP_TLS_VERIFY_SERVER', true),
    /** A CA to trust for the server's certificate (PEM), besides the system's. */
    tlsCa: pem('SMTP_TLS_CA'),
    /** Connecting, the server's greeting, and any silence of the server afterwards, each at most. */
    timeoutMs: Math.max(1, int('SMTP_TIMEOUT_MS', 30_000)),
    /** Lifetime of the link in an invitation that issues the person's first API token. */
    inviteTokenTtlSeconds: Math.max(1, int('INVITE_TOKEN_TTL_SECONDS', 7 * 24 * 3600)),
    /** How long a message whose delivery ended is kept (`cli jobs list` shows it). */
    retentionSeconds: int('MAIL_RETENTION_SECONDS', 30 * 24 * 3600),
  };
}

function translationConfig() {
  const provider = oneOf('TRANSLATION_PROVIDER', ['pseudo', 'libretranslate', 'deepl', 'openai'] as const, 'pseudo');
  return {
    provider,
    libretranslate: {
      url: str('TRANSLATION_LIBRETRANSLATE_URL', 'http://127.0.0.1:5000'),
      /** optional: a self-hosted server may run without keys */
      apiKey: credential('TRANSLATION_LIBRETRANSLATE_API_KEY', false),
    },
    deepl: {
      url: str('TRANSLATION_DEEPL_URL', 'https://api.deepl.com'),
      apiKey: credential('TRANSLATION_DEEPL_API_KEY', provider === 'deepl'),
    },
    openai: {
      url: str('TRANSLATION_OPENAI_URL', 'https://api.openai.com/v1'),
      /** optional: a local OpenAI-compatible server may run without keys */
      apiKey: credential('TRANSLATION_OPENAI_API_KEY', false),
      model: str('TRANSLATION_OPENAI_MODEL', 'gpt-4o-mini'),
    },
    /** Segments (runs of text) per provider request, at most, and about this many characters. */
    batchSegments: Math.max(1, int('TRANSLATION_BATCH_SEGMENTS', 50)),
    batchChars: Math.max(1, int('TRANSLATION_BATCH_CHARS', 20000)),
    /** Pages per workflow step: the unit a crashed run resumes from. */
    pagesPerStep: Math.max(1, int('TRANSLATION_PAGES_PER_STEP', 25)),
    /** Pages per revision the apply writes into the result space: what one commit (and its indexing) holds in memory. */
    applyPagesPerCommit: Math.max(1, int('TRANSLATION_APPLY_PAGES_PER_COMMIT', 500)),
    /** Provider requests per second per worker, at most (0: no limit). */
    requestsPerSecond: int('TRANSLATION_REQUESTS_PER_SECOND', 5),
    timeoutMs: Math.max(1, int('TRANSLATION_TIMEOUT_MS', 60_000)),
    /** Attempts per provider request on 429, 5xx, timeouts and network errors, with exponential back-off. */
    retry: {
      attempts: Math.max(1, int('TRANSLATION_RETRY_ATTEMPTS', 5)),
      initialMs: int('TRANSLATION_RETRY_INITIAL_MS', 1000),
      maxMs: int('TRANSLATION_RETRY_MAX_MS', 30_000),
    },
    /** How long the intermediate blobs of a failed run are kept (for inspection) before the cleanup removes them. */
    stagingRetentionSeconds: int('TRANSLATION_STAGING_RETENTION_SECONDS', 24 * 3600),
  };
}

function workerQueues(name: string): Array<'main' | 'heavy'> {
  const raw = str(name, 'main,heavy');
  const queues = [...new Set(raw.split(',').map((q) => q.trim()))];
  if (queues.length === 0 || queues.some((q) => q !== 'main' && q !== 'heavy'))
    throw new Error(`${name}: must be main, heavy or main,heavy, got "${raw}"`);
  return queues as Array<'main' | 'heavy'>;
}

export type DatabaseConfig = ReturnType<typeof loadDatabaseConfig>;
export type Config = ReturnType<typeof loadConfig>;
export type JobsConfig = ReturnType<typeof loadJobsConfig>;
export type TemporalConfig = ReturnType<typeof loadTemporalConfig>;
