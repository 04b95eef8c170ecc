import type { InstallationSelection, InstallationStatus } from '../../entities/IntegrationInstallation';

/**
 * The enumerations of an integration, as GitBook's documents give them (the union of 0.137,
 * the reference, and 0.202, so manifests written for either publish).
 */
export const INTEGRATION_SCOPES = [
  'space:views:read',
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:script:inject',
  'space:script:cookies',
  'space:git:sync',
  'space:visitor:auth',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'site:ai:ask',
  'openapi:read',
  'openapi:write',
  'conversations:ingest',
] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

export const INTEGRATION_CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'gitsync',
  'marketing',
  'visitor-auth',
  'other',
] as const;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const INTEGRATION_RUNTIMES = ['v1', 'v2'] as const;

/** The directives GitBook's IntegrationContentSecurityPolicy object form names. */
export const CSP_DIRECTIVES = [
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-sri-for',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
] as const;

/** An installation's status: `pending` while a required configuration is missing. */
export const INSTALLATION_STATUSES = ['active', 'pending', 'paused'] as const satisfies readonly InstallationStatus[];
/** Which spaces (sites) an installation covers: `all` of the organization's, or the `selected` ones. */
export const INSTALLATION_SELECTIONS = ['all', 'selected'] as const satisfies readonly InstallationSelection[];
