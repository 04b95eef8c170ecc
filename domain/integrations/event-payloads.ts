/**
 * The event types the service sends to integrations and the fields each adds to GitBook's Event
 * (`eventId`, `type`, `installationId`, and `spaceId` / `siteId` for space and site events).
 * The callers build the fields with these, so every payload has its type's required fields.
 */
import type { InstallationStatus } from '../../entities/IntegrationInstallation';
import type { User } from '../../entities/User';

export const INTEGRATION_EVENT_TYPES = [
  'installation_setup',
  'installation_deleted',
  'space_installation_setup',
  'space_installation_deleted',
  'site_installation_setup',
  'site_installation_deleted',
  'space_content_updated',
  'space_visibility_updated',
] as const;
export type IntegrationEventType = (typeof INTEGRATION_EVENT_TYPES)[number];

type Configuration = Record<string, unknown>;

/** `*_installation_setup`: installed or updated; `previous` is the state before an update. */
export function setupFields(
  status: InstallationStatus,
  previous?: { status: InstallationStatus; configuration: Configuration },
) {
  return previous ? { status, previous } : { status };
}

/** `*_installation_deleted`: the configuration the installation had. */
export function deletedFields(configuration: Configuration) {
  return { previous: { configuration } };
}

/**
 * GitBook's User, as `space_content_updated.updatedBy` lists them (built here: activities deliver it too);
 * `photoURL` is optional in GitBook's document: left out when there is none, as the API's answers do.
 */
export function eventUser(user: User, publicBaseUrl: string) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: `${publicBaseUrl}/v1/users/${user.id}` },
  };
}

export function contentUpdatedFields(revisionId: string, updatedBy: Array<ReturnType<typeof eventUser>>) {
  return { revisionId, updatedBy };
}

export function visibilityUpdatedFields(previousVisibility: string, visibility: string) {
  return { previousVisibility, visibility };
}
