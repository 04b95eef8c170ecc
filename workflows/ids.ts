/** Deterministic workflow ids: a retried call finds the running workflow instead of starting a second. */
export const spacePurgeWorkflowId = (spaceId: string): string => `space-purge/${spaceId}`;

/** Custom search attributes registered on the Temporal server (scripts/lib.sh). */
export const SEARCH_ATTRIBUTES = { organization: 'OrganizationId', space: 'SpaceId' } as const;
