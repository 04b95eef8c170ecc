import type { Request } from 'express';

/**
 * What a log line about a request says beside its id: its operation, the organization its path names,
 * and the integration that acts when the caller presents one of its tokens.
 */
export function requestContext(req: Request): {
  operationId?: string;
  organizationId?: string;
  integrationId?: string;
} {
  return {
    operationId: req.operationId,
    organizationId: req.organizationId ?? undefined,
    integrationId: req.caller?.integration?.integrationId,
  };
}
