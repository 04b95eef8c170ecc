/**
 * The request limits (platform/rate-limits): per token, per user and per organization after
 * authentication, per client address on the operations reachable without a token. Every answer
 * carries the RateLimit-Policy and RateLimit headers of the IETF draft (RateLimit header fields for
 * HTTP); a refused request answers 429 with Retry-After. The token is counted first, then its user,
 * then the organization: a bucket refused takes nothing from the next ones, so a runaway script cannot
 * starve its owner's other tokens or its colleagues. Only members count against an organization, so
 * outsiders cannot spend its budget by naming it in their paths.
 */
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../domain/errors';
import type { Config } from '../../platform/config';
import { addressBucket } from '../../platform/rate-limits/client-address';
import type { BucketState, RateLimiter, RateLimitPolicy } from '../../platform/rate-limits/limiter';
import type { RequestOrganizations } from '../../platform/rate-limits/request-organization';

declare module 'express-serve-static-core' {
  interface Request {
    /** the organization the path names, for the limit and the request log (null: none) */
    organizationId?: string | null;
  }
}

type Limits = Config['rateLimits'];

/** The policies by name: the `policy` label of http_rate_limited_requests_total (api/metrics.ts). */
export const RATE_LIMIT_POLICIES = {
  token: 'token',
  user: 'user',
  organization: 'organization',
  address: 'address',
} as const;

type Bucket = [RateLimitPolicy, string];

/**
 * Counts a request against its buckets in turn, stopping at the first that refuses, and sets the
 * headers; a refusal goes on as the 429 error.
 */
function counter(
  limiter: RateLimiter,
  policies: RateLimitPolicy[],
  windowSeconds: number,
  onRefused: (policy: string) => void,
) {
  const policyHeader = policies
    .filter((p) => p.limit > 0)
    .map((p) => `"${p.name}";q=${p.limit};w=${windowSeconds}`)
    .join(', ');
  /** Sets the headers of what was counted, and goes on, or refuses with the first bucket that refused. */
  const answer = (states: BucketState[], res: Response, next: NextFunction): void => {
    if (!states.length) {
      next();
      return;
    }
    res.setHeader('RateLimit-Policy', policyHeader);
    res.setHeader('RateLimit', states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`).join(', '));
    const refused = states.find((s) => !s.allowed);
    if (!refused) {
      next();
      return;
    }
    onRefused(refused.policy.name);
    res.setHeader('Retry-After', String(refused.resetSeconds));
    next(
      new AppError(
        429,
        `rate limit: at most ${refused.policy.limit} requests per ${windowSeconds} s per ${refused.policy.name}; retry in ${refused.resetSeconds} s`,
      ),
    );
  };
  // without a promise while every bucket's lease lasts (limiter.hit): the usual request waits for nothing
  const count = (
    buckets: Bucket[],
    res: Response,
    next: NextFunction,
    states: BucketState[] = [],
  ): void | Promise<void> => {
    for (let i = states.length; i < buckets.length; i++) {
      const state = limiter.hit(buckets[i][0], buckets[i][1]);
      if (state instanceof Promise)
        return state.then((s) =>
          s.allowed ? count(buckets, res, next, [...states, s]) : answer([...states, s], res, next),
        );
      states.push(state);
      if (!state.allowed) break;
    }
    answer(states, res, next);
  };
  return count;
}

export function rateLimit(
  limiter: RateLimiter,
  organizations: RequestOrganizations,
  config: Limits,
  onRefused: (policy: string) => void,
) {
  const token: RateLimitPolicy = { name: RATE_LIMIT_POLICIES.token, limit: config.perToken };
  const user: RateLimitPolicy = { name: RATE_LIMIT_POLICIES.user, limit: config.perUser };
  const organization: RateLimitPolicy = { name: RATE_LIMIT_POLICIES.organization, limit: config.perOrganization };
  const count = counter(limiter, [token, user, organization], config.windowSeconds, onRefused);

  const countFor = (req: Request, res: Response, next: NextFunction, organizationId: string | null) => {
    req.organizationId = organizationId;
    const caller = req.caller!;
    const buckets: Bucket[] = [];
    if (token.limit > 0) buckets.push([token, caller.tokenId]);
    if (user.limit > 0) buckets.push([user, caller.userId]);
    const member = caller.memberships.some((m) => m.organizationId === organizationId);
    if (organization.limit > 0 && member) buckets.push([organization, organizationId!]);
    return count(buckets, res, next);
  };
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    const organizationId = organizations.of(req.params);
    return organizationId instanceof Promise
      ? organizationId.then((id) => countFor(req, res, next, id))
      : countFor(req, res, next, organizationId);
  };
}

/** The operations reachable without a token: per client address (req.ip, as TRUST_PROXY lets Express read it). */
export function rateLimitByAddress(limiter: RateLimiter, config: Limits, onRefused: (policy: string) => void) {
  const address: RateLimitPolicy = { name: RATE_LIMIT_POLICIES.address, limit: config.perAddress, transient: true };
  const count = counter(limiter, [address], config.windowSeconds, onRefused);
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> =>
    count(address.limit > 0 ? [[address, addressBucket(req.ip)]] : [], res, next);
}
