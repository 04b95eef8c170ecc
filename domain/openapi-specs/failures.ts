/** The codes an openapi-process run records on its spec (`lastProcessErrorCode`), GitBook's complete list. */
export const OPENAPI_FAILURES = { fetchTimeout: 'FETCH_TIMEOUT', fetch: 'FETCH_ERROR', parse: 'PARSE_ERROR' } as const;
