/**
 * Bearer-token authentication. A header that is not one bearer token is told the expected form; every token that
 * is not live gets the same 401, whatever the reason (unknown, expired, revoked).
 */
import type { NextFunction, Request, Response } from 'express';
import type { DataSource } from 'typeorm';
import type { KnownAccess } from '../../domain/access/context';
import type { LiveTokenCache } from '../../domain/auth/live-token-cache';
import type { LiveToken } from '../../domain/auth/tokens';
import { unauthorized } from '../../domain/errors';

/** Who calls, with their memberships and grants (or the integration it acts for), read with the token. */
export interface Caller extends KnownAccess {
  userId: string;
  tokenId: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    caller?: Caller;
  }
}

const EXPECTED_FORM = 'send it as Authorization: Bearer <token>';

/** Why an Authorization header was not read as a token: absent, without its scheme, or of another scheme. */
function malformedAuthorization(header: string): string {
  const value = header.trim();
  if (!value) return `a bearer token is required: ${EXPECTED_FORM}`;
  if (/^Bearer$/i.test(value)) return `the Authorization header has the scheme but no token: ${EXPECTED_FORM}`;
  const [scheme, ...rest] = value.split(/\s+/);
  if (rest.length === 0) return `the Authorization header has no scheme: ${EXPECTED_FORM}`;
  if (!/^Bearer$/i.test(scheme))
    return `the Authorization scheme ${scheme.slice(0, 20)} is not accepted: ${EXPECTED_FORM}`;
  return `the Authorization header holds more than one token: ${EXPECTED_FORM}`;
}

export function authenticate(ds: DataSource, tokens: LiveTokenCache) {
  const admit = (req: Request, next: NextFunction, live: LiveToken | null): void => {
    if (!live) {
      next(unauthorized('the bearer token is unknown, expired or revoked'));
      return;
    }
    req.caller = {
      userId: live.token.userId,
      tokenId: live.token.id,
      memberships: live.memberships,
      grants: live.grants,
      integration: live.integration,
    };
    next();
  };
  // without a promise when the token is remembered (LiveTokenCache): the usual request waits for nothing here
  return (req: Request, _res: Response, next: NextFunction): void | Promise<void> => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer ([^\s]+)$/i.exec(header);
    if (!match) return next(unauthorized(malformedAuthorization(header)));
    const live = tokens.find(ds.manager, match[1]);
    return live instanceof Promise ? live.then((l) => admit(req, next, l)) : admit(req, next, live);
  };
}
