/** Where a spec's blobs live: all under `openapi/<specId>/`, so deleting a spec finds them all. */

/** A submitted text, by its SHA-256 (the same text is stored once per spec). */
export const specTextKey = (specId: string, sha256: string): string => `openapi/${specId}/texts/${sha256}`;

/** The bundle one run made: a retried step writes the same key. */
export const specBundleKey = (specId: string, generation: number): string =>
  `openapi/${specId}/bundles/${generation}.json`;
