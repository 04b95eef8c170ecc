/** Organization rules: creation with its first admin, updates with unique hostnames, listing. */

import { Member } from '../../entities/Member';
import type { MergeRulesConfiguration } from '../../entities/merge-rules';
import { Organization } from '../../entities/Organization';
import { User } from '../../entities/User';
import { type Db, insertKeepingValues } from '../../platform/db/transactions';
import type { Role } from '../access/roles';
import { conflict } from '../errors';
import { newId } from '../ids';
import { checkMergeRules } from '../merge-rules/configuration';
import { assertClaimable, normalizeDomains } from './claimed-domains';
import { addOrUpdateMember } from './membership';

export interface NewOrganization {
  title: string;
  type?: string;
  useCase?: string | null;
  communityType?: string | null;
  emailDomains?: string[];
  hostname?: string | null;
  defaultRole?: Role | null;
}

/** The organization, with `adminUserId` as its first admin; a domain it claims must be that admin's (claimed-domains.ts). */
export async function createOrganization(db: Db, input: NewOrganization, adminUserId: string): Promise<Organization> {
  const now = new Date();
  const emailDomains = normalizeDomains(input.emailDomains ?? []);
  if (emailDomains.length) assertClaimable([], emailDomains, await emailOf(db, adminUserId));
  if (input.hostname) await assertHostnameFree(db, input.hostname, null);
  const org = db.create(Organization, {
    id: newId(),
    title: input.title,
    createdAt: now,
    updatedAt: now,
    emailDomains,
    hostname: input.hostname ?? null,
    type: input.type ?? 'business',
    useCase: input.useCase ?? null,
    communityType: input.communityType ?? null,
    defaultRole: input.defaultRole ?? 'read',
    defaultContent: null,
    logoURL: null,
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: 'free_2024',
  });
  await insertKeepingValues(db, Organization, org);
  await addOrUpdateMember(db, org.id, adminUserId, 'admin');
  return org;
}

export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: { type: string; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: MergeRulesConfiguration;
}

/** `actorUserId`: the admin who asks; a domain they add must be theirs (claimed-domains.ts). */
export async function updateOrganization(
  db: Db,
  org: Organization,
  patch: OrganizationPatch,
  actorUserId: string,
): Promise<Organization> {
  const emailDomains = patch.emailDomains === undefined ? undefined : normalizeDomains(patch.emailDomains);
  if (emailDomains?.some((d) => !org.emailDomains.includes(d)))
    assertClaimable(org.emailDomains, emailDomains, await emailOf(db, actorUserId));
  if (patch.hostname !== undefined && patch.hostname !== org.hostname)
    await assertHostnameFree(db, patch.hostname, org.id);
  if (patch.mergeRules !== undefined) await checkMergeRules(db, org.id, patch.mergeRules, 'mergeRules');
  const { logo, emailDomains: _, ...rest } = patch;
  Object.assign(org, rest);
  if (emailDomains !== undefined) org.emailDomains = emailDomains;
  if (logo !== undefined) org.logoURL = logo;
  org.updatedAt = new Date();
  await db.save(Organization, org);
  return org;
}

async function emailOf(db: Db, userId: string): Promise<string | null> {
  return (await db.findOneBy(User, { id: userId }))?.email ?? null;
}

async function assertHostnameFree(db: Db, hostname: string, exceptId: string | null): Promise<void> {
  const taken = await db.findOneBy(Organization, { hostname });
  if (taken && taken.id !== exceptId) throw conflict(`hostname: "${hostname}" is already in use`);
}

/** Organizations the user belongs to (not disabled), newest first. */
export function organizationsOfUserQuery(db: Db, userId: string) {
  return db
    .createQueryBuilder(Organization, 'o')
    .innerJoin(Member, 'm', 'm.organizationId = o.id AND m.userId = :userId AND m.disabled = 0', { userId });
}
