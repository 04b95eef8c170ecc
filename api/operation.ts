/**
 * `api.op()` (ApiBuilder.op) mounts one HTTP operation and describes it in the OpenAPI registry from the
 * same zod schemas that validate it, so the document lists exactly what is implemented.
 */
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Request, RequestHandler, Response, Router } from 'express';
import type { ZodObject, ZodRawShape, ZodTypeAny } from 'zod';
import { AccessContext } from '../domain/access/context';
import { AppError, forbidden } from '../domain/errors';
import { toWire } from '../platform/wire/to-wire';
import { z } from '../platform/wire/zod';
import type { Deps } from './deps';
import { MethodsByPath } from './method-not-allowed';
import type { Caller } from './middleware/authenticate';
import { answeredFromIdempotencyKey } from './middleware/idempotency';
import { loggedQueryParameters } from './middleware/redact-url';
import { uploadBodyParser } from './upload-body';
import { validationError, WHOLE_BODY } from './validation';

declare module 'express-serve-static-core' {
  interface Request {
    /** the operation serving the request, for the request log and the metrics */
    operationId?: string;
  }
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationDef<P extends ZodRawShape, Q extends ZodRawShape, B extends ZodTypeAny> {
  method: Method;
  /** OpenAPI-style path: /v1/orgs/{organizationId} */
  path: string;
  operationId: string;
  summary: string;
  /**
   * What the reference teaches beyond the summary, in our words: what the operation does, who may call it (the
   * permission the access function asks), what it changes, and the job it starts, if any.
   */
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A 201 with a body is documented with its Location header unless `noLocation` says it has none.
   * `contentType`: a body that is not JSON (the handler answers it as `raw` bytes).
   */
  responses: Record<number, { description: string; schema?: ZodTypeAny; noLocation?: boolean; contentType?: string }>;
  /** An operation the spec needs but does not show (an extension of ours, not GitBook's). */
  extension?: boolean;
  /** Kept for existing clients; `summary` names its replacement. */
  deprecated?: boolean;
  /**
   * Reachable without a bearer token. `'tokenOptional'`: a request that presents one is authenticated (and
   * rate limited) as on any other operation, so the handler knows its caller; one without is anonymous.
   */
  anonymous?: boolean | 'tokenOptional';
  /**
   * Acts on the caller's own account (its tokens, its organizations, its presence) rather than on a
   * resource the access function judges: an integration's token, which has no account, gets a 403.
   */
  userOnly?: boolean;
  /**
   * The body is one file, at most `limit` bytes (413 beyond): a multipart/form-data file part or the raw bytes
   * (api/upload-body.ts). `body` is then a schema over the `Upload`; both forms are documented.
   */
  upload?: { limit: number };
  /**
   * Body fields that belong to another operation, each with where it goes: an unknown-field error says so
   * (`parent: unknown field; moving a space is POST /v1/spaces/{spaceId}/move`).
   */
  fieldsElsewhere?: Readonly<Record<string, string>>;
  /** Its 2xx answer carries a secret shown once (a token, a key): an `Idempotency-Key` never replays it. */
  secretInAnswer?: boolean;
  /** The path parameter that spans the rest of the path, slashes included (a page path: `guide/setup`). */
  restParam?: keyof P & string;
}

export interface OperationInput<P extends ZodRawShape, Q extends ZodRawShape, B extends ZodTypeAny> {
  params: z.output<ZodObject<P>>;
  query: z.output<ZodObject<Q>>;
  body: z.output<B>;
  caller: Caller;
  access: AccessContext;
  req: Request;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** bytes sent as they are (their Content-Type among `headers`), instead of a JSON `body` */
  raw?: Buffer;
  /** a JSON body already serialized for the wire (api/remembered-answers.ts), instead of `body` */
  json?: string;
  headers?: Record<string, string>;
}

export type Handler<P extends ZodRawShape, Q extends ZodRawShape, B extends ZodTypeAny> = (
  input: OperationInput<P, Q, B>,
) => Promise<Reply>;

const METHODS_WITH_BODY = new Set<Method>(['post', 'put', 'patch']);

/**
 * The validated body, or, when it is invalid, a stand-in that throws the 400 at the first read of anything in it:
 * the handler reaches it only after loading and authorizing (see the call), so the refusal comes in that order.
 */
function bodyOrRefusal(
  schema: ZodTypeAny,
  value: unknown,
  elsewhere: Readonly<Record<string, string>> | undefined,
): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const refusal = validationError(result.error, WHOLE_BODY, schema, elsewhere);
  const refuse = (): never => {
    unreadRefusals.delete(standIn);
    throw refusal;
  };
  const standIn = new Proxy(
    {},
    { get: refuse, has: refuse, ownKeys: refuse, getOwnPropertyDescriptor: refuse, getPrototypeOf: refuse },
  );
  unreadRefusals.set(standIn, refusal);
  return standIn;
}

/** Invalid bodies no handler has read yet: one still here when its handler answered is refused all the same. */
const unreadRefusals = new WeakMap<object, AppError>();

/** An upload's two forms, as the document shows them. */
const UPLOAD_CONTENT = {
  'multipart/form-data': {
    schema: z
      .object({
        file: z.string().openapi({
          type: 'string',
          format: 'binary',
          description: 'the file (`curl -F file=@logo.png`): at most FILE_MAX_BYTES bytes, not empty',
        }),
      })
      .openapi({
        description: 'one file part (any field name); its filename names the file, its Content-Type types it',
      }),
  },
  'application/octet-stream': {
    schema: z.string().openapi({
      type: 'string',
      format: 'binary',
      description: "the file's raw bytes, sent with the file's own Content-Type (image/png, application/pdf, …)",
    }),
  },
};

function parse<T extends ZodTypeAny>(
  schema: T,
  value: unknown,
  location: string,
  elsewhere?: Readonly<Record<string, string>>,
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, location, schema, elsewhere);
  return result.data;
}

/**
 * Sends a JSON answer's text as it is: Node writes a string body with its headers in one write, where Express's
 * `res.json` would copy it into a Buffer and write both apart. A conditional GET, and an answer whose handler chose
 * its Content-Type, go through Express's `res.send` as before (its freshness check, its charset).
 */
function sendJson(req: Request, res: Response, status: number, json: string): void {
  if (
    req.headers['if-none-match'] !== undefined ||
    req.headers['if-modified-since'] !== undefined ||
    res.hasHeader('Content-Type')
  ) {
    if (!res.hasHeader('Content-Type')) res.type('application/json');
    res.status(status).send(json);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

export function hasBody(req: Request): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The methods an `Idempotency-Key` applies to (api/middleware/idempotency.ts), and what it adds to their document. */
const KEYED_METHODS = new Set<Method>(['post', 'put', 'patch']);
const IDEMPOTENCY_HEADER = {
  'Idempotency-Key': z.string().min(1).max(255).optional().openapi({
    description:
      'Extension: 1..255 printable ASCII characters. A repeat of the request with the same key (same caller, organization, operation, path and body) within IDEMPOTENCY_KEY_TTL_SECONDS gets the first answer again with `Idempotent-Replayed: true`, and does nothing more.',
  }),
};
const IF_NONE_MATCH_HEADER = {
  'If-None-Match': z
    .string()
    .optional()
    .openapi({ description: 'Extension: ETags of copies the caller holds; the current one (or `*`) answers 304' }),
};
const IF_MATCH_HEADER = {
  'If-Match': z.string().optional().openapi({
    description: 'Extension: the ETag the write is based on (or `*`); 412 when the resource has changed or is gone',
  }),
};
const IDEMPOTENCY_RESPONSES = {
  409: {
    description:
      'a state conflict; or (extension) a request with this `Idempotency-Key` is still in progress (with `Retry-After`), or its answer held a secret shown once',
  },
  422: {
    description: '(extension) the `Idempotency-Key` was used for another request: another operation, path or body',
  },
};

/** An operation path's first two literal segments (`/v1/spaces`): the group it is routed in. */
const GROUP = /^\/v1\/[A-Za-z-]+(?=\/|$)/;

/**
 * Within a group, the shape of a path: its number of segments and the literal that follows the first one, a
 * parameter (`/{spaceId}/content/page/{pageId}` → `4:content`). Only a route whose first segment is a parameter,
 * and the second (if any) a literal, has one; a URL's is computed alike, so a route can match a URL only if both
 * have the same. `''`: a route without one.
 */
function shapeOfRoute(routePath: string): string {
  const segments = routePath.split('/').filter(Boolean);
  if (!segments.length || segments.some((s) => s.startsWith('*'))) return '';
  if (!segments[0].startsWith(':') || segments[1]?.startsWith(':')) return '';
  return `${segments.length}:${(segments[1] ?? '').toLowerCase()}`;
}

/** The routers a URL's routes are in: its group's and shape's key, and its group's key (Express ignores case). */
function keysOfUrl(path: string): [string, string] | null {
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2 || segments[0].toLowerCase() !== 'v1') return null;
  const group = `/v1/${segments[1].toLowerCase()}`;
  return [`${group}|${segments.length - 2}:${(segments[3] ?? '').toLowerCase()}`, `${group}|`];
}

export class ApiBuilder {
  readonly router = Router();
  /**
   * A router per group and path shape (`/v1/spaces|4:content`), and per group for its paths without a shape
   * (`/v1/spaces|`), found by one lookup: Express tries a router's routes one by one, so a request is matched against
   * the few routes of its own shape (a GET space against 3, not the 71 of /v1/spaces), then its group's others.
   * Routes keep their whole path (no mount to trim). Paths of different keys never match the same URL, so their
   * order does not matter.
   */
  private readonly routers = new Map<string, Router>();
  /** Every operation's path and methods: a known path asked with another method answers 405. */
  readonly methods = new MethodsByPath();

  constructor(
    readonly deps: Deps,
    private readonly registry: OpenAPIRegistry,
    /** What runs before every operation that needs a token: authentication, then the rate limits. */
    private readonly authenticated: RequestHandler[],
    /** What runs before every operation reachable without one: the per-address rate limit. */
    private readonly anonymous: RequestHandler[],
  ) {
    this.router.use(this.dispatch());
  }

  op<
    P extends ZodRawShape = Record<never, never>,
    Q extends ZodRawShape = Record<never, never>,
    B extends ZodTypeAny = ZodTypeAny,
  >(def: OperationDef<P, Q, B>, handler: Handler<P, Q, B>): void {
    const paramsSchema = z.object(def.params ?? ({} as P)).strict();
    // unknown query parameters are ignored : clients send GitBook's newer ones; known ones stay strict
    const querySchema = z.object(def.query ?? ({} as Q)).strip();
    const bodySchema: ZodTypeAny = def.body ?? z.object({}).strict();
    // what the query schema makes of no parameters (its defaults), when it accepts none
    const noParameters = querySchema.safeParse({});
    const emptyQuery = noParameters.success ? (noParameters.data as z.output<ZodObject<Q>>) : null;
    this.describe(def, paramsSchema, querySchema);

    const expressPath = def.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === def.restParam ? `*${name}` : `:${name}`,
    );
    const loggedQuery = loggedQueryParameters(Object.keys(def.query ?? {}));
    // the answer goes out as its documented schema says: optional fields without a value left out
    const wire = (status: number, body: unknown) => {
      const schema = def.responses[status]?.schema;
      return schema ? toWire(schema, body) : body;
    };
    // the operation id first, for the request log and the metrics of every answer, 401s included
    const named: RequestHandler = (req, _res, next) => {
      req.operationId = def.operationId;
      req.loggedQuery = loggedQuery;
      next();
    };
    const handlers: RequestHandler[] = [
      named,
      ...(def.anonymous === 'tokenOptional'
        ? [this.tokenOptional()]
        : def.anonymous
          ? this.anonymous
          : this.authenticated),
    ];
    if (def.upload) handlers.push(uploadBodyParser(def.upload.limit));
    const group = GROUP.exec(expressPath)?.[0];
    const router = group
      ? this.routerOf(`${group.toLowerCase()}|${shapeOfRoute(expressPath.slice(group.length))}`)
      : this.router;
    this.methods.add(expressPath, def.method);
    router[def.method](expressPath, ...handlers, async (req: Request, res: Response) => {
      // Express hands a rest parameter over as its segments
      const rawParams = def.restParam
        ? { ...req.params, [def.restParam]: ([] as string[]).concat(req.params[def.restParam]).join('/') }
        : req.params;
      const params = parse(paramsSchema, rawParams, 'path');
      // without a query string the answer is always the same: known once, copied, with no string to parse
      const query = emptyQuery && !req.url.includes('?') ? { ...emptyQuery } : parse(querySchema, req.query, 'query');
      let rawBody: unknown;
      if (def.upload) rawBody = req.upload;
      else if (METHODS_WITH_BODY.has(def.method) || def.body) {
        if (hasBody(req) && !req.is('application/json'))
          throw new AppError(415, `${WHOLE_BODY}: Content-Type must be application/json`);
        rawBody = hasBody(req) ? req.body : {};
      }
      // a JSON `null` body is not an object: it is refused, not read as {}
      // An operation's own body is checked when the handler first reads it, after its authorization: a caller
      // who may not act gets the 403 (or 404), and learns nothing from the validation. Without a body of its own,
      // an operation checks at once that none was sent.
      const body = def.body
        ? bodyOrRefusal(bodySchema, rawBody, def.fieldsElsewhere)
        : rawBody !== undefined
          ? parse(bodySchema, rawBody, WHOLE_BODY)
          : undefined;
      const caller = req.caller ?? { userId: '', tokenId: '', memberships: [], grants: [] };
      if (def.userOnly && caller.integration)
        throw forbidden("an integration's token cannot do this: it takes a user's token");
      if (await answeredFromIdempotencyKey(this.deps, def, req, res, params, rawBody)) return;
      let reply: Reply;
      try {
        reply = await handler({
          params,
          query,
          body,
          caller,
          access: new AccessContext(this.deps.ds.manager, caller.userId, caller),
          req,
        });
      } catch (err) {
        // A DELETE of what does not exist and one of what the caller may not see answer alike: 204, and
        // nothing changed (the handler's transaction rolled back), so nothing is revealed.
        if (def.method === 'delete' && err instanceof AppError && err.status === 404) {
          res.status(204).end();
          return;
        }
        throw err;
      }
      const unread = typeof body === 'object' && body !== null ? unreadRefusals.get(body) : undefined;
      if (unread) {
        // a handler that never reads its body would accept any: a defect, refused loudly
        this.deps.logger.error(
          { operationId: def.operationId },
          'the handler answered without reading its invalid body',
        );
        throw unread;
      }
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if (reply.raw) res.status(reply.status).end(reply.raw);
      else if (reply.json !== undefined) sendJson(req, res, reply.status, reply.json);
      else if (reply.body === undefined) res.status(reply.status).end();
      else sendJson(req, res, reply.status, JSON.stringify(wire(reply.status, reply.body)));
    });
  }

  /** A request that presents a bearer token goes through `authenticated`, one without through `anonymous`. */
  private tokenOptional(): RequestHandler {
    const withToken = Router().use(this.authenticated);
    const without = Router().use(this.anonymous);
    return (req, res, next) =>
      (/^Bearer\s+\S/i.test(req.headers.authorization ?? '') ? withToken : without)(req, res, next);
  }

  private routerOf(key: string): Router {
    let router = this.routers.get(key);
    if (!router) {
      router = Router();
      this.routers.set(key, router);
    }
    return router;
  }

  /** First in `router`: sends a request to its shape's routes, then its group's others, then on. */
  private dispatch(): RequestHandler {
    return (req, res, next) => {
      const keys = keysOfUrl(req.path);
      const shaped = keys && this.routers.get(keys[0]);
      const general = keys && this.routers.get(keys[1]);
      const afterShaped = general ? (err?: unknown) => (err ? next(err) : general(req, res, next)) : next;
      if (shaped) shaped(req, res, afterShaped);
      else afterShaped();
    };
  }

  private describe<P extends ZodRawShape, Q extends ZodRawShape, B extends ZodTypeAny>(
    def: OperationDef<P, Q, B>,
    params: ZodObject<ZodRawShape>,
    query: ZodObject<ZodRawShape>,
  ): void {
    const responses: RouteConfig['responses'] = {};
    for (const [status, r] of Object.entries(def.responses)) {
      const location =
        status === '201' && r.schema && !r.noLocation
          ? {
              headers: {
                Location: { description: 'URL of the created resource', schema: { type: 'string' as const } },
              },
            }
          : {};
      responses[status] = r.schema
        ? {
            description: r.description,
            content: { [r.contentType ?? 'application/json']: { schema: r.schema } },
            ...location,
          }
        : { description: r.description };
    }
    // a body is required only when an empty one would not do
    const bodyRequired = !!def.body && (!!def.upload || !def.body.safeParse({}).success);
    const keyed = KEYED_METHODS.has(def.method) && !def.anonymous;
    if (keyed) for (const [status, r] of Object.entries(IDEMPOTENCY_RESPONSES)) responses[status] ??= r;
    // an operation that answers 304 reads If-None-Match, one that answers 412 reads If-Match (api/middleware/conditional.ts)
    const headers = z.object({
      ...(keyed ? IDEMPOTENCY_HEADER : {}),
      ...(def.responses[304] ? IF_NONE_MATCH_HEADER : {}),
      ...(def.responses[412] ? IF_MATCH_HEADER : {}),
    });
    responses.default = { description: 'error: {"error": {"code", "message"}}' };
    const route: RouteConfig = {
      method: def.method,
      path: def.path,
      operationId: def.operationId,
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      request: {
        ...(Object.keys(headers.shape).length ? { headers } : {}),
        ...(def.params ? { params } : {}),
        ...(def.query ? { query } : {}),
        ...(def.body
          ? {
              body: {
                required: bodyRequired,
                content: def.upload ? UPLOAD_CONTENT : { 'application/json': { schema: def.body } },
              },
            }
          : {}),
      },
      responses,
      ...(def.anonymous === 'tokenOptional'
        ? { security: [{}, { bearer: [] }] }
        : def.anonymous
          ? { security: [] }
          : {}),
      ...(def.extension ? { 'x-extension': true } : {}),
      ...(def.deprecated ? { deprecated: true } : {}),
    };
    this.registry.registerPath(route);
  }
}
