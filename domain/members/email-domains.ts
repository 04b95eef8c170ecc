/**
 * Organizations claiming an e-mail domain. A caller whose own e-mail is in the domain sees every
 * organization claiming it (so a newcomer finds where to join); anyone else sees only those they
 * already belong to.
 */

import { Organization } from '../../entities/Organization';
import type { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { emailDomainOf } from '../organizations/claimed-domains';
import { organizationsOfUserQuery } from '../organizations/organizations';

export async function organizationsClaimingDomain(db: Db, domain: string, caller: User): Promise<Organization[]> {
  const normalized = domain.toLowerCase();
  const qb =
    emailDomainOf(caller.email) === normalized
      ? db.createQueryBuilder(Organization, 'o')
      : organizationsOfUserQuery(db, caller.id);
  return qb
    .andWhere('JSON_CONTAINS(o.emailDomains, JSON_QUOTE(:domain))', { domain: normalized })
    .orderBy('o.createdAt', 'DESC')
    .addOrderBy('o.id', 'DESC')
    .getMany();
}
