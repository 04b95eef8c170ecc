import type { Request } from 'express';

/** What a log line about a request says beside its id: its operation, and the organization its path names. */
export function requestContext(req: Request): { operationId?: string; organizationId?: string } {
  return { operationId: req.operationId, organizationId: req.organizationId ?? undefined };
}
