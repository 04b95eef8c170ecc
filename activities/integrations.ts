/** Integration event delivery: thin wrappers over domain/integrations/delivery.ts. */
import {
  abandonEvent,
  DeliveryNext,
  DeliveryOutcome,
  deliverEvent,
  recordAttempt,
} from '../domain/integrations/delivery';
import type { JobRef } from '../domain/jobs/contracts';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface IntegrationActivities {
  /** POSTs the event to its tunnel once, heartbeating; answers and network errors come back as the outcome. */
  deliverIntegrationEvent(ref: JobRef, attempt: number): Promise<DeliveryOutcome>;
  /** Writes the attempt's trace line (and the final status) and says what comes next. */
  recordDeliveryAttempt(ref: JobRef, attempt: number, outcome: DeliveryOutcome): Promise<DeliveryNext>;
  /** Marks a still-pending event failed with `reason`. */
  abandonIntegrationEvent(ref: JobRef, reason: string): Promise<void>;
}

export function createIntegrationActivities(deps: ActivityDeps): IntegrationActivities {
  return permanentFailures<IntegrationActivities>({
    deliverIntegrationEvent: (ref, attempt) => heartbeating((live) => deliverEvent(deps, ref, attempt, live)),
    recordDeliveryAttempt: (ref, attempt, outcome) => recordAttempt(deps, ref, attempt, outcome),
    abandonIntegrationEvent: (ref, reason) => abandonEvent(deps, ref, reason),
  });
}
