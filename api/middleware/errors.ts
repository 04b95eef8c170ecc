/** The error handler, last in the chain: every non-2xx body is {"error": {"code", "message"}}. */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { QueryFailedError } from 'typeorm';
import { AppError } from '../../domain/errors';
import { DEADLINE_CODES } from '../../platform/deadline';
import { requestContext } from '../request-context';
import { bodyTooLarge, WHOLE_BODY } from '../validation';
import { deadlinePassed, RETRY_AFTER_SECONDS } from './deadline';
import { malformedJson } from './json-body';

/** What the body parsers (http-errors) and the router attach to the errors they raise. */
interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** gRPC's DEADLINE_EXCEEDED, bare or as the cause of the Temporal client's ServiceError. */
function isTemporalDeadline(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === GRPC_DEADLINE_EXCEEDED || e?.cause?.code === GRPC_DEADLINE_EXCEEDED;
}
const GRPC_DEADLINE_EXCEEDED = 4;

function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as BodyParserError;
  if (e && e.type === 'entity.parse.failed') return malformedJson((e as { body?: string }).body);
  if (e && e.type === 'entity.too.large') return bodyTooLarge((e as { limit?: number }).limit);
  if (e && (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported'))
    return new AppError(415, `${WHOLE_BODY}: unsupported encoding`);
  if (e && e.type === 'request.aborted') return new AppError(400, `${WHOLE_BODY}: request aborted`);
  // the router marks a path segment it cannot percent-decode (`%FF`) with status 400
  if (err instanceof URIError && e.status === 400) return new AppError(400, 'path: malformed percent-encoding');
  // any other body the parsers refuse as the client's fault (bytes that do not inflate per their
  // Content-Encoding, a length that disagrees with Content-Length): http-errors marks those `expose`
  if (e && e.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError(e.status, `${WHOLE_BODY}: cannot be decoded (check Content-Encoding and Content-Length)`);
  }
  if (err instanceof QueryFailedError) {
    const code = (err as QueryFailedError & { code?: string }).code;
    if (code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT')
      return new AppError(503, 'the request collided with another one; retry it');
  }
  const code = (err as { code?: string })?.code;
  if (code === 'ECONNREFUSED' || code === 'PROTOCOL_CONNECTION_LOST' || code === 'ETIMEDOUT') {
    return new AppError(503, 'a dependency of the service is unreachable');
  }
  if (code === DEADLINE_CODES.statement || code === DEADLINE_CODES.acquire || isTemporalDeadline(err))
    return new AppError(503, 'a dependency of the service did not answer in time; retry it');
  return null;
}

/** What failed behind a 503: the driver's code, errno and message (MariaDB's sqlMessage), or the error's own. */
function causeOf(err: unknown): { code?: string; errno?: number; message: string } {
  const e = err as { code?: string; errno?: number; message?: string; driverError?: { sqlMessage?: string } };
  return {
    code: e?.code,
    errno: e?.errno,
    message: e?.driverError?.sqlMessage ?? e?.message ?? String(err),
  };
}

export function errorHandler(logger: Logger) {
  // Express recognises an error handler by its four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // the deadline answered already: what the handler did after it is no error of its own
    if (deadlinePassed(res)) return;
    const known = toAppError(err);
    const status = known?.status ?? 500;
    if (!known) logger.error({ err, reqId: req.id, ...requestContext(req) }, 'unhandled error');
    // the caller is told only to retry; the operator needs the dependency's own words (no SQL text: it may hold data)
    else if (status === 503 && !(err instanceof AppError))
      logger.warn({ reqId: req.id, ...requestContext(req), cause: causeOf(err) }, `answered 503: ${known.message}`);
    if (res.headersSent) return;
    // a dependency's trouble: worth a retry, not at once
    if (status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    const body: { error: Record<string, unknown> } = {
      error: { code: status, message: known?.message ?? 'internal error' },
    };
    if (known?.details) Object.assign(body.error, known.details);
    // RFC 6750: a 401 names the scheme that would be accepted
    if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(status).json(body);
  };
}
