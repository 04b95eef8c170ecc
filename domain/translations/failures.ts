/** The codes a failed translation run records on its translation (`error.code`). */
export const TRANSLATION_FAILURES = {
  /** The provider refused a request (HTTP 4xx other than 429): a bad key, an unsupported language ... */
  rejected: 'PROVIDER_REJECTED',
  /** The provider kept failing (429, 5xx, timeouts) after every retry. */
  unavailable: 'PROVIDER_UNAVAILABLE',
  /** The source space was deleted since the translation was set up. */
  sourceGone: 'SOURCE_SPACE_UNAVAILABLE',
  /** The result space was locked (edit mode `locked`): a run does not write through change requests. */
  resultLocked: 'RESULT_SPACE_LOCKED',
} as const;
