/**
 * GET /: where to go next. GET /docs: an interactive reference of /v1/openapi.json (Swagger UI). Its scripts and styles come from
 * the swagger-ui-dist package and are served from here, so the page works offline; its Content Security
 * Policy makes the browser refuse anything from another origin, a CDN included.
 */
import { Router } from 'express';
import * as path from 'path';

const ASSETS = '/docs/assets';
const PACKAGE_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The package's files the page uses; the rest of the package (its demo page among them) is not served. */
const PACKAGE_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference</title>
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png">
</head>
<body>
  <div id="reference"></div>
  <script src="${ASSETS}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS}/start.js"></script>
</body>
</html>
`;

/** A file rather than an inline script, so that the policy can forbid inline scripts. */
const START = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  filter: true,
  persistAuthorization: true,
  tryItOutEnabled: false,
  validatorUrl: null,
});
`;

/** What `GET /` answers: where a newcomer goes next, and how requests are authenticated. */
export function serviceIndex(publicBaseUrl: string) {
  return {
    reference: `${publicBaseUrl}/docs`,
    openapi: `${publicBaseUrl}/v1/openapi.json`,
    tour: 'the README\'s "API tour" and docs/tour.md, in the repository: every call with its answer',
    authentication:
      'send Authorization: Bearer <token>; `npm start` prints an admin token, `node dist/cli/main.js bootstrap` makes one, and POST /v1/user/tokens makes more',
  };
}

/** `publicBaseUrl` is where "Try it out" sends requests (the document's `servers` entry). */
export function referenceRoutes(publicBaseUrl: string): Router {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'", // Swagger UI sets style attributes
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(publicBaseUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const router = Router();
  const index = serviceIndex(publicBaseUrl);
  router.get('/', (_req, res) => {
    res.json(index);
  });
  router.get('/docs', (_req, res) => {
    res.set('Content-Security-Policy', policy).type('html').send(PAGE);
  });
  router.get(`${ASSETS}/start.js`, (_req, res) => {
    res.type('js').send(START);
  });
  router.get(`${ASSETS}/:file`, (req, res, next) => {
    if (!PACKAGE_FILES.has(req.params.file)) return next();
    res.sendFile(path.join(PACKAGE_DIR, req.params.file), { maxAge: '1h' });
  });
  return router;
}
