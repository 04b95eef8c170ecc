/**
 * The codes a failed import records on its run (GitBook's OpenAPI codes where the cause is the same):
 * the URL could not be fetched, its content could not be read, or the content it was to go into can
 * no longer change. A cancelled run records CANCELLED (domain/jobs/contracts.ts).
 */
export const IMPORT_FAILURES = {
  fetchTimeout: 'FETCH_TIMEOUT',
  fetch: 'FETCH_ERROR',
  parse: 'PARSE_ERROR',
  /** an archive or document beyond IMPORT_MAX_BYTES / IMPORT_MAX_ARCHIVE_ENTRIES (a zip bomb) */
  limit: 'LIMIT_EXCEEDED',
  /** the change request was merged or archived, or the space locked, before the commit */
  target: 'TARGET_NOT_WRITABLE',
} as const;
