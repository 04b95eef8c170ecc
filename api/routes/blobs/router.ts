/**
 * GET /v1/blobs/{key...}: the local back end's signed download URLs (platform/storage/local-blob-store.ts signs them). Mounted on the app
 * directly rather than through `api.op`, because its key spans several path segments and its answer is
 * a byte stream, not JSON; it is described in the same OpenAPI registry.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Request, Response, Router } from 'express';
import { pipeline } from 'stream/promises';
import { z } from 'zod';
import { forbidden, notFound } from '../../../domain/errors';
import { attachmentDisposition } from '../../../platform/storage/content-disposition';
import { LocalBlobStore } from '../../../platform/storage/local-blob-store';
import type { Deps } from '../../deps';
import { loggedQueryParameters } from '../../middleware/redact-url';
import { validationError } from '../../validation';
import { blobDownloadParams, blobDownloadQuery } from './schema';

const querySchema = z.object(blobDownloadQuery).strict();
const loggedQuery = loggedQueryParameters(Object.keys(blobDownloadQuery));
const SIGNED_FIELDS = Object.keys(blobDownloadQuery);

function describe(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/blobs/{key}',
    operationId: 'downloadBlob',
    summary: 'Download a blob through a signed URL (local blob store only; the signature is the credential)',
    description:
      "Serves a file, an exported PDF or an integration's asset by the `downloadURL` another answer gave. No token is " +
      'needed: the signature is the credential, valid until `expires` (BLOB_URL_TTL_SECONDS after it was made). ' +
      'Anyone with the link may download; a link that lost part of its query, or whose signature does not match, is a ' +
      '403. With the `s3` blob store the links point at S3 itself, and this operation answers 404. Changes nothing.',
    tags: ['Blobs'],
    request: { params: z.object(blobDownloadParams), query: querySchema },
    responses: {
      200: {
        description: 'the bytes, as an attachment',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      403: { description: 'the link is incomplete, its signature is invalid, or it has expired' },
      404: { description: 'no such blob, or the service stores blobs in S3' },
      default: { description: 'error: {"error": {"code", "message"}}' },
    },
    security: [],
    'x-extension': true,
  });
}

export function blobRoutes(deps: Deps, registry: OpenAPIRegistry): Router {
  describe(registry);
  const router = Router();
  router.get('/v1/blobs/*key', async (req: Request, res: Response) => {
    req.loggedQuery = loggedQuery;
    // S3 serves its own presigned URLs
    if (!(deps.blobs instanceof LocalBlobStore)) throw notFound('blob');
    const parsed = querySchema.safeParse(req.query);
    // a link whose query was cut off (a copy that lost it, a tool that strips it) is not a wrong field: say so
    const lost = SIGNED_FIELDS.filter((field) => req.query[field] === undefined);
    if (lost.length)
      throw forbidden(
        `the download link is incomplete: it lost ${lost.join(', ')} from its query; use the whole link, or ask the API for a fresh one`,
      );
    if (!parsed.success) throw validationError(parsed.error, 'query', querySchema);
    // express gives a wildcard's segments as an array
    const key = [req.params.key].flat().join('/');
    if (!deps.blobs.verify({ key, ...parsed.data })) throw forbidden('the download link is invalid or has expired');
    const blob = await deps.blobs.open(key);
    if (!blob) throw notFound('blob');

    // setHeader, not res.set: express would append a charset to the signed media type
    res.status(200);
    res.setHeader('Content-Type', parsed.data.contentType);
    res.setHeader('Content-Length', String(blob.size));
    res.setHeader('Content-Disposition', attachmentDisposition(parsed.data.filename));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // uploaded content on the API's own origin: never let a browser run it
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'private');
    // once the headers are out an error cannot become a JSON answer; the client sees a short body
    await pipeline(blob.stream, res).catch((err) =>
      deps.logger.warn({ err, key, reqId: req.id }, 'blob download interrupted'),
    );
  });
  return router;
}
