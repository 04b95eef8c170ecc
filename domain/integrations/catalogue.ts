/**
 * The catalogue (GET /v1/integrations): public integrations, and the private ones of the organizations
 * the caller is a member of, as the integration policy lets them be seen; unlisted ones are never
 * listed (they are read by name), tombstones never seen. Filters under GitBook's query names.
 */

import { Integration } from '../../entities/Integration';
import { Member } from '../../entities/Member';
import type { Db } from '../../platform/db/transactions';
import { containsPattern } from '../like';

export interface CatalogueFilters {
  /** in the name or the title, case-insensitively */
  search?: string;
  category?: string;
  /** a block unfurls URLs of this host or of its subdomains */
  blockDomain?: string;
  /** has blocks (true) or has none (false) */
  blocks?: boolean;
  contentSources?: boolean;
  /** owned by this organization */
  owner?: string;
  scope?: string;
  /** installable on this target: integrations whose target is it or `all` */
  target?: string;
}

/** LIKE patterns of a urlUnfurl pattern whose host is `domain` or a subdomain of it (`_` and `%` escaped). */
function hostPatterns(domain: string): string[] {
  const d = domain.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return [`%://${d}`, `%://${d}/%`, `%.${d}`, `%.${d}/%`];
}

export function catalogueQuery(db: Db, callerUserId: string, filters: CatalogueFilters) {
  const qb = db
    .createQueryBuilder(Integration, 'i')
    .where('i.deletedAt IS NULL')
    .andWhere(
      `(i.visibility = 'public' OR (i.visibility = 'private' AND i.ownerOrganizationId IN ${qbMembershipsOf(db)}))`,
      { callerUserId },
    );
  if (filters.search)
    qb.andWhere('(LOWER(i.name) LIKE :search OR LOWER(i.title) LIKE :search)', {
      search: containsPattern(filters.search),
    });
  if (filters.category)
    qb.andWhere('JSON_CONTAINS(i.categories, JSON_QUOTE(:category))', { category: filters.category });
  if (filters.scope) qb.andWhere('JSON_CONTAINS(i.scopes, JSON_QUOTE(:scope))', { scope: filters.scope });
  if (filters.owner) qb.andWhere('i.ownerOrganizationId = :owner', { owner: filters.owner });
  if (filters.target)
    qb.andWhere(filters.target === 'all' ? "i.target = 'all'" : "i.target IN (:target, 'all')", {
      target: filters.target,
    });
  if (filters.blocks !== undefined) qb.andWhere(`JSON_LENGTH(i.blocks) ${filters.blocks ? '>' : '='} 0`);
  if (filters.contentSources !== undefined)
    qb.andWhere(`JSON_LENGTH(i.contentSources) ${filters.contentSources ? '>' : '='} 0`);
  if (filters.blockDomain) {
    const patterns = hostPatterns(filters.blockDomain);
    const params = Object.fromEntries(patterns.map((p, i) => [`blockDomain${i}`, p]));
    // hosts compare case-insensitively: the document is lowercased, its keys with it (urlUnfurl -> urlunfurl)
    const matches = patterns.map(
      (_p, i) => `JSON_SEARCH(LOWER(i.blocks), 'one', :blockDomain${i}, NULL, '$[*].urlunfurl[*]') IS NOT NULL`,
    );
    qb.andWhere(`(${matches.join(' OR ')})`, params);
  }
  return qb;
}

/** The organizations the caller is an enabled member of, as a subquery on :callerUserId. */
function qbMembershipsOf(db: Db): string {
  const sub = db
    .createQueryBuilder(Member, 'm')
    .select('m.organizationId')
    .where('m.userId = :callerUserId')
    .andWhere('m.disabled = 0');
  return `(${sub.getQuery()})`;
}
