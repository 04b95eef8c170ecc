/**
 * The request limits per token and per organization (domain/rate-limits), after authentication.
 * Every answer carries the RateLimit-Policy and RateLimit headers of the IETF draft (RateLimit header
 * fields for HTTP); a refused request answers 429 with Retry-After. The token is counted first: a
 * token refused on its own limit takes nothing from its organization's. Only members count against an
 * organization, so outsiders cannot spend its budget by naming it in their paths.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../../domain/config';
import { AppError } from '../../domain/errors';
import type { BucketState, RateLimiter, RateLimitPolicy } from '../../domain/rate-limits/limiter';
import type { RequestOrganizations } from '../../domain/rate-limits/request-organization';

declare module 'express-serve-static-core' {
  interface Request {
    /** the organization the path names, for the limit and the request log (null: none) */
    organizationId?: string | null;
  }
}

export function rateLimit(
  limiter: RateLimiter,
  organizations: RequestOrganizations,
  config: Config['rateLimits'],
  onRefused: (policy: string) => void,
) {
  const token: RateLimitPolicy = { name: 'token', limit: config.perToken };
  const organization: RateLimitPolicy = { name: 'organization', limit: config.perOrganization };
  const policies = [token, organization].filter((p) => p.limit > 0);
  const policyHeader = policies.map((p) => `"${p.name}";q=${p.limit};w=${config.windowSeconds}`).join(', ');

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    req.organizationId = await organizations.of(req.params);
    if (!policies.length) return next();
    const states: BucketState[] = [];
    if (token.limit > 0) states.push(await limiter.hit(`token:${req.caller!.tokenId}`, token));
    const member = req.caller!.memberships.some((m) => m.organizationId === req.organizationId);
    if (organization.limit > 0 && member && states.every((s) => s.allowed)) {
      states.push(await limiter.hit(`organization:${req.organizationId}`, organization));
    }
    if (!states.length) return next();
    res.setHeader('RateLimit-Policy', policyHeader);
    res.setHeader('RateLimit', states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`).join(', '));
    const refused = states.find((s) => !s.allowed);
    if (!refused) return next();
    onRefused(refused.policy.name);
    res.setHeader('Retry-After', String(refused.resetSeconds));
    next(
      new AppError(
        429,
        `rate limit: at most ${refused.policy.limit} requests per ${config.windowSeconds} s per ${refused.policy.name}; retry in ${refused.resetSeconds} s`,
      ),
    );
  };
}
