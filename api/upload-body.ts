/**
 * The body of a file upload, in either form a client sends it:
 * - `multipart/form-data` with one file part (`curl -F file=@logo.png`), streamed through busboy: the name comes
 *   from the part's filename, the type from the part's Content-Type;
 * - the raw bytes with the file's own Content-Type (`curl --data-binary @logo.png -H 'Content-Type: image/png'`).
 * Where the declared type says nothing (none, or application/octet-stream), the bytes' signature names it. Both forms
 * are bounded by the same limit (413 beyond). A form a file cannot arrive in (JSON, a urlencoded form, another
 * multipart) is refused with 415, naming the two that work, rather than stored as if it were the file.
 */
import busboy from 'busboy';
import express, { Request, RequestHandler } from 'express';
import { filetypemime } from 'magic-bytes.js';
import { AppError } from '../domain/errors';
import { bodyTooLarge, WHOLE_BODY } from './validation';

export interface Upload {
  bytes: Buffer;
  /** the file's type: declared by the client, else read from the bytes' signature */
  contentType: string;
  /** the multipart part's filename; none for raw bytes */
  filename?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** the uploaded file, read by uploadBodyParser */
    upload?: Upload;
  }
}

export const UPLOAD_FORMS =
  "send the file as multipart/form-data with one file part (curl -F file=@logo.png), or as its raw bytes with the file's own Content-Type (curl --data-binary @logo.png -H 'Content-Type: image/png')";

const GENERIC_TYPE = 'application/octet-stream';
const MAX_CONTENT_TYPE = 255;

/** Reads one upload into `req.upload`, in whichever of the two forms it came. */
export function uploadBodyParser(limit: number): RequestHandler {
  const raw = express.raw({ type: () => true, limit });
  return (req, res, next) => {
    const declared = req.headers['content-type'];
    if (declared !== undefined && refusedForm(req)) {
      next(
        new AppError(415, `${WHOLE_BODY}: Content-Type ${mediaType(declared)} cannot carry a file: ${UPLOAD_FORMS}`),
      );
      return;
    }
    if (req.is('multipart/form-data')) {
      readMultipart(req, limit).then(
        (upload) => {
          req.upload = upload;
          next();
        },
        (err: unknown) => {
          req.unpipe();
          req.resume(); // drain what is left, so the answer can be read
          next(err);
        },
      );
      return;
    }
    raw(req, res, (err?: unknown) => {
      // a body past the limit is the error handler's 413, as for JSON
      if (err) {
        next(err);
        return;
      }
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      req.upload = { bytes, contentType: typeOf(declared, bytes) };
      next();
    });
  };
}

/** JSON, a urlencoded form (curl's default for --data-binary) or a multipart form other than form-data. */
function refusedForm(req: Request): boolean {
  return (
    !!req.is(['application/json', '+json', 'application/x-www-form-urlencoded', 'multipart/*']) &&
    !req.is('multipart/form-data')
  );
}

function mediaType(header: string): string {
  return header.split(';')[0].trim().slice(0, 100) || '(empty)';
}

/**
 * The declared type, unless it says nothing (none, or one of `weak`): then what the bytes' signature says, else the
 * declared or generic type. Signatures are read from the first 4 KiB, where every format magic-bytes knows has its own.
 */
function typeOf(declared: string | undefined, bytes: Buffer, weak: readonly string[] = [GENERIC_TYPE]): string {
  const type = declared?.trim() || GENERIC_TYPE;
  if (type.length > MAX_CONTENT_TYPE)
    throw new AppError(400, `Content-Type: must be at most ${MAX_CONTENT_TYPE} characters`);
  if (!weak.includes(mediaType(type).toLowerCase())) return type;
  return filetypemime(bytes.subarray(0, 4096))[0] ?? type;
}

/** The one file part of a multipart/form-data body; a text field, a second file or no file is a 400. */
function readMultipart(req: Request, limit: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy signals `limit` when a file reaches fileSize, so one byte more lets a file of exactly `limit` through
        limits: { files: 1, fileSize: limit + 1, fields: 1, fieldSize: 1024, headerPairs: 20, fieldNameSize: 100 },
      });
    } catch (err) {
      reject(new AppError(400, `${WHOLE_BODY}: malformed multipart/form-data (${(err as Error).message})`));
      return;
    }
    let found: { filename: string; declared: string; chunks: Buffer[] } | undefined;
    let failed = false;
    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    parser.on('file', (field, stream, info) => {
      const part = { filename: info.filename, declared: info.mimeType, chunks: [] as Buffer[] };
      found = part;
      stream.on('data', (chunk: Buffer) => part.chunks.push(chunk));
      stream.on('limit', () => fail(bodyTooLarge(limit)));
      stream.on('error', () => fail(new AppError(400, `${field}: the file part ended early`)));
    });
    parser.on('field', (name) =>
      fail(new AppError(400, `${name}: unknown form field: the form takes one file part, no other field`)),
    );
    parser.on('filesLimit', () => fail(new AppError(400, `${WHOLE_BODY}: the form takes one file part, not several`)));
    parser.on('error', (err: Error) =>
      fail(new AppError(400, `${WHOLE_BODY}: malformed multipart/form-data (${err.message})`)),
    );
    parser.on('close', () => {
      if (failed) return;
      if (!found) {
        fail(new AppError(400, 'file: the form has no file part (curl -F file=@path)'));
        return;
      }
      const bytes = Buffer.concat(found.chunks);
      resolve({
        bytes,
        // busboy reports a part without a Content-Type as text/plain (RFC 7578): the bytes may say better
        contentType: typeOf(found.declared, bytes, [GENERIC_TYPE, 'text/plain']),
        filename: found.filename,
      });
    });
    req.pipe(parser);
  });
}
