/**
 * The words the schema and every floor above it share: the role ladder and a failed job's messages. A leaf:
 * it imports nothing, so entities/ need nothing above them, and the job contracts (domain/jobs/contracts.ts),
 * which workflow code imports by value, may import it.
 */

/** The spec's role enumeration, ordered from least to most powerful. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** One message of a failed run, e.g. a validation error of an OpenAPI document. */
export interface JobErrorMessage {
  message: string;
  code?: string;
}
