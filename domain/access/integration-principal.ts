/** An integration calling the API with one of its tokens: a caller of its own kind, never a member. */
import type { ApiToken } from '../../entities/ApiToken';
import type { InstallationSelection } from '../../entities/IntegrationInstallation';
import type { Db } from '../../platform/db/transactions';
import { effectiveScopes } from '../integrations/granted-scopes';

export interface IntegrationPrincipal {
  integrationId: string;
  /**
   * The scopes the token acts with: the integration's published ones for its own token; for an installation
   * token, those its organization also granted (granted-scopes.ts). They cap everything the token may do.
   */
  scopes: readonly string[];
  /** The installation an installation token acts within; null for the integration's own token. */
  installation: {
    id: string;
    organizationId: string;
    spaceSelection: InstallationSelection;
    siteSelection: InstallationSelection;
  } | null;
}

/**
 * What an integration token acts as, read with the token itself (and remembered as long as it is):
 * null once the integration is unpublished or the installation removed, so the token stops.
 */
export async function loadIntegrationPrincipal(
  db: Db,
  token: Pick<ApiToken, 'integrationId' | 'installationId'>,
): Promise<IntegrationPrincipal | null> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT i.scopes, n.grantedScopes, n.id AS installationId, n.organizationId, n.spaceSelection, n.siteSelection
       FROM integrations i LEFT JOIN integration_installations n ON n.id = ? AND n.integrationId = i.id
      WHERE i.id = ? AND i.deletedAt IS NULL`,
    [token.installationId, token.integrationId],
  );
  if (!rows.length) return null;
  const row = rows[0];
  if (token.installationId && !row.installationId) return null;
  const published = jsonColumn(row.scopes);
  return {
    integrationId: token.integrationId!,
    scopes: row.installationId ? effectiveScopes(published, jsonColumn(row.grantedScopes)) : published,
    installation: row.installationId
      ? {
          id: row.installationId as string,
          organizationId: row.organizationId as string,
          spaceSelection: row.spaceSelection as InstallationSelection,
          siteSelection: row.siteSelection as InstallationSelection,
        }
      : null,
  };
}

/** A JSON column read by a raw statement: MariaDB answers text, MySQL the parsed value. */
function jsonColumn(value: unknown): string[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as string[];
}
