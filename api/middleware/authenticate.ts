/** Bearer-token authentication: every failure is the same 401, whatever the reason. */
import type { NextFunction, Request, Response } from 'express';
import type { DataSource } from 'typeorm';
import type { KnownAccess } from '../../domain/access/context';
import type { LiveTokenCache } from '../../domain/auth/live-token-cache';
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

export function authenticate(ds: DataSource, tokens: LiveTokenCache) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer ([^\s]+)$/i.exec(header);
    if (!match) return next(unauthorized());
    const live = await tokens.find(ds.manager, match[1]);
    if (!live) return next(unauthorized('the bearer token is unknown, expired or revoked'));
    req.caller = {
      userId: live.token.userId,
      tokenId: live.token.id,
      memberships: live.memberships,
      grants: live.grants,
      integration: live.integration,
    };
    next();
  };
}
