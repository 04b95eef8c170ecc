/**
 * Reads of installations: the lists (by integration, by installation, by external id), the space
 * count an installation carries, and which installations cover a space or a site.
 *
 * What an installation covers: with `space_selection: all` every live space of its organization,
 * with `selected` (the default of a new installation) only the spaces it was installed on (a row
 * of integration_space_installations); sites likewise with `site_selection`. An integration whose
 * `target` excludes spaces (or sites) covers none. Covered spaces and sites are the ones whose events
 * the integration receives, whose published site shows its script, and that its tokens reach.
 */

import { Integration } from '../../entities/Integration';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { Site } from '../../entities/Site';
import type { Space } from '../../entities/Space';
import { columnsOf, hydrate } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';
import type { ContentKind } from './content-installations';

/** A space installation counts while its space is live (a deleted space's rows wait for its purge). */
const LIVE_SPACE = 'EXISTS (SELECT 1 FROM spaces sp WHERE sp.id = x.spaceId AND sp.deletedAt IS NULL)';

/**
 * A private integration counts only where its owner organization installed it (integration `g`,
 * installation `i`): an installation elsewhere, made while it was public, covers nothing.
 */
const OWNED_IF_PRIVATE = "(g.visibility <> 'private' OR g.ownerOrganizationId = i.organizationId)";

/** The integration's installations, optionally those with `externalId` among their external ids; for keyset pagination on (createdAt, id). */
export function installationsQuery(db: Db, integrationId: string, externalId?: string) {
  const qb = db
    .createQueryBuilder(IntegrationInstallation, 'x')
    .where('x.integrationId = :integrationId', { integrationId });
  if (externalId !== undefined) qb.andWhere('JSON_CONTAINS(x.externalIds, JSON_QUOTE(:externalId))', { externalId });
  return qb;
}

export interface ContentInstallationFilter {
  integrationId: string;
  /** only this installation's */
  installationId?: string;
  externalId?: string;
}

/** Space or site installations, for keyset pagination on (createdAt, spaceId|siteId). */
export function contentInstallationsQuery(db: Db, kind: ContentKind, filter: ContentInstallationFilter) {
  const qb =
    kind === 'space'
      ? db.createQueryBuilder(IntegrationSpaceInstallation, 'x').where(LIVE_SPACE)
      : db.createQueryBuilder(IntegrationSiteInstallation, 'x').where('1 = 1');
  qb.andWhere('x.integrationId = :integrationId', { integrationId: filter.integrationId });
  if (filter.installationId !== undefined)
    qb.andWhere('x.installationId = :installationId', { installationId: filter.installationId });
  if (filter.externalId !== undefined)
    qb.andWhere('JSON_CONTAINS(x.externalIds, JSON_QUOTE(:externalId))', { externalId: filter.externalId });
  return qb;
}

/** How many live spaces each installation covers (`spaces` on an installation), in one statement. */
export async function coveredSpaceCounts(
  db: Db,
  installations: IntegrationInstallation[],
): Promise<Map<string, number>> {
  const counts = new Map(installations.map((i) => [i.id, 0]));
  if (!installations.length) return counts;
  const rows: Array<{ id: string; n: number | string }> = await db.query(
    `SELECT i.id AS id, CASE WHEN i.spaceSelection = 'all'
        THEN (SELECT COUNT(*) FROM spaces s WHERE s.organizationId = i.organizationId AND s.deletedAt IS NULL)
        ELSE (SELECT COUNT(*) FROM integration_space_installations x WHERE x.installationId = i.id AND ${LIVE_SPACE}) END AS n
     FROM integration_installations i WHERE i.id IN (?)`,
    [installations.map((i) => i.id)],
  );
  for (const r of rows) counts.set(r.id, Number(r.n));
  return counts;
}

export interface SpaceCoverage {
  integration: Integration;
  installation: IntegrationInstallation;
  /** null when the space is covered by `space_selection: all` without an installation of its own */
  spaceInstallation: IntegrationSpaceInstallation | null;
}

export interface SiteCoverage {
  integration: Integration;
  installation: IntegrationInstallation;
  /** null when the site is covered by `site_selection: all` without an installation of its own */
  siteInstallation: IntegrationSiteInstallation | null;
}

const COVERAGE = {
  space: {
    table: 'integration_space_installations',
    key: 'spaceId',
    selection: 'spaceSelection',
    entity: IntegrationSpaceInstallation,
  },
  site: {
    table: 'integration_site_installations',
    key: 'siteId',
    selection: 'siteSelection',
    entity: IntegrationSiteInstallation,
  },
} as const;

async function covering(db: Db, kind: ContentKind, organizationId: string, contentId: string) {
  const c = COVERAGE[kind];
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${columnsOf(db, Integration, 'g')}, ${columnsOf(db, IntegrationInstallation, 'i')}, ${columnsOf(db, c.entity, 'c')}
     FROM integration_installations i
     INNER JOIN integrations g ON g.id = i.integrationId AND g.deletedAt IS NULL AND g.target IN ('all', ?)
       AND ${OWNED_IF_PRIVATE}
     LEFT JOIN ${c.table} c ON c.installationId = i.id AND c.${c.key} = ?
     WHERE i.organizationId = ? AND (i.${c.selection} = 'all' OR c.${c.key} IS NOT NULL)
     ORDER BY g.name, i.id`,
    [kind, contentId, organizationId],
  );
  return rows.map((row) => ({
    integration: hydrate(db, Integration, 'g', row),
    installation: hydrate(db, IntegrationInstallation, 'i', row),
    row: row[`c_${c.key}`] === null ? null : hydrate(db, c.entity, 'c', row),
  }));
}

/** The installations that cover the space (see above): those that receive its events. */
export async function installationsCoveringSpace(db: Db, space: Space): Promise<SpaceCoverage[]> {
  if (space.deletedAt) return [];
  return (await covering(db, 'space', space.organizationId, space.id)).map(({ row, ...rest }) => ({
    ...rest,
    spaceInstallation: row as IntegrationSpaceInstallation | null,
  }));
}

/** Whether an installation of the integration covers a published site: one whose visitors load its script. */
export async function coversPublishedSite(db: Db, integration: Integration): Promise<boolean> {
  if (integration.deletedAt || !['all', 'site'].includes(integration.target)) return false;
  const rows: unknown[] = await db.query(
    `SELECT 1 FROM integration_installations i
     INNER JOIN integrations g ON g.id = i.integrationId AND ${OWNED_IF_PRIVATE}
     INNER JOIN sites s ON s.organizationId = i.organizationId AND s.published = TRUE
     WHERE i.integrationId = ? AND (i.siteSelection = 'all' OR EXISTS (
       SELECT 1 FROM integration_site_installations c WHERE c.installationId = i.id AND c.siteId = s.id))
     LIMIT 1`,
    [integration.id],
  );
  return rows.length > 0;
}

/** The installations that cover the site: those that receive its events and whose scripts it shows. */
export async function installationsCoveringSite(db: Db, site: Site): Promise<SiteCoverage[]> {
  return (await covering(db, 'site', site.organizationId, site.id)).map(({ row, ...rest }) => ({
    ...rest,
    siteInstallation: row as IntegrationSiteInstallation | null,
  }));
}
