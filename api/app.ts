/** The Express application: middleware order matters, the error handler is last. */
import { createHash } from 'crypto';
import express, { Express } from 'express';
import { gzipSync } from 'zlib';
import { LiveTokenCache } from '../domain/auth/live-token-cache';
import { notFound } from '../domain/errors';
import { boundPool } from '../platform/deadline';
import { RateLimiter } from '../platform/rate-limits/limiter';
import { RequestOrganizations } from '../platform/rate-limits/request-organization';
import type { Deps } from './deps';
import { ApiMetrics } from './metrics';
import { authenticate } from './middleware/authenticate';
import { requestDeadline } from './middleware/deadline';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/json-body';
import { rateLimit, rateLimitByAddress } from './middleware/rate-limit';
import { requestLog } from './middleware/request-log';
import { createRegistry, generateDocument } from './openapi/registry';
import { ApiBuilder } from './operation';
import { Readiness } from './readiness';
import { registerRoutes } from './routes';
import { blobRoutes } from './routes/blobs/router';
import { referenceRoutes } from './routes/docs/router';

export function createApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  // no proxy by default: the socket's address is the client's, whatever X-Forwarded-For says
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');
  // no automatic ETag: hashing every JSON answer (SHA-1) was a twentieth of a search's CPU; no client of the API uses it (/v1/openapi.json keeps its own)
  app.set('etag', false);

  const metrics = new ApiMetrics(deps.ds);
  app.locals.metrics = metrics;
  app.use(metrics.timeRequests());
  app.use(requestLog(deps.logger, deps.config.logRequests));
  // a publish carries the integration's script, icon and preview images inline: its own, larger limit
  app.post('/v1/integrations/:integrationName', jsonBody(deps.config.integrations.publishMaxBytes));
  app.use(jsonBody(deps.config.bodyLimitBytes));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const { mysql } = deps.config;
  boundPool(deps.ds, { acquireMs: mysql.acquireTimeoutMs, statementMs: mysql.statementTimeoutMs });
  const readiness = new Readiness(deps);
  app.locals.readiness = readiness;
  app.get('/readyz', readiness.route);
  // after the probes: /readyz bounds its own checks
  app.use(requestDeadline(deps.config.requestTimeoutMs));

  const registry = createRegistry();
  const limits = deps.config.rateLimits;
  const limiter = new RateLimiter(deps.ds, limits.windowSeconds, limits.maxLease);
  const onRefused = (policy: string) => metrics.rateLimited(policy);
  const byAddress = rateLimitByAddress(limiter, limits, onRefused);
  const api = new ApiBuilder(
    deps,
    registry,
    [
      authenticate(deps.ds, new LiveTokenCache(deps.config.tokenCacheMs)),
      rateLimit(limiter, new RequestOrganizations(deps.ds), limits, onRefused),
    ],
    [byAddress],
  );
  registerRoutes(api);
  const blobs = blobRoutes(deps, registry);
  // The document changes only with the code: serialized once, with an ETag for conditional requests, and gzipped
  // once for the clients that accept it (fetch and browsers do): it is about 600 KB, a tenth of that compressed.
  const document = Buffer.from(JSON.stringify(generateDocument(registry, deps.config.publicBaseUrl)));
  const documentTag = createHash('sha256').update(document).digest('base64url');
  const gzipped = gzipSync(document, { level: 9 });
  app.get('/v1/openapi.json', (req, res) => {
    res.set({ 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept-Encoding' });
    // each representation has its own strong tag
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip')
      return void res.set({ 'Content-Encoding': 'gzip', ETag: `"${documentTag}-gzip"` }).send(gzipped);
    res.set({ ETag: `"${documentTag}"` }).send(document);
  });
  // the API's routes first: one lookup finds a request's (ApiBuilder.dispatch), and a request it has none for goes on
  // to the reference pages and the blob addresses, whose routes no API request has to be matched against
  app.use(api.router);
  app.use(referenceRoutes(deps.config.publicBaseUrl));
  app.use('/v1/blobs', byAddress);
  app.use(blobs);

  app.use(api.methods.handler());
  app.use((_req, _res, next) => next(notFound('route')));
  app.use(errorHandler(deps.logger));
  return app;
}
