/**
 * Explicit roles on a space or collection for a user or a team (extension operations). The access
 * function (domain/access/authorize.ts) raises effective roles with them.
 */

import { ContentGrant, GrantPrincipalKind, GrantTargetKind } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { Team } from '../../entities/Team';
import type { Db } from '../../platform/db/transactions';
import type { Role } from '../access/roles';
import { badRequest } from '../errors';

export interface GrantTarget {
  kind: GrantTargetKind;
  id: string;
  organizationId: string;
}

export interface GrantPrincipal {
  kind: GrantPrincipalKind;
  id: string;
}

/** 400 unless the user is a member (or guest) of the organization, or the team is one of its teams. */
async function assertPrincipalInOrganization(db: Db, organizationId: string, principal: GrantPrincipal): Promise<void> {
  if (principal.kind === 'user') {
    if (!(await db.existsBy(Member, { organizationId, userId: principal.id })))
      throw badRequest(`userId: "${principal.id}" is not a member of this organization`);
  } else if (!(await db.existsBy(Team, { organizationId, id: principal.id }))) {
    throw badRequest(`teamId: "${principal.id}" is not a team of this organization`);
  }
}

/** Gives the principal `role` on the target, replacing any role it had there. */
export async function setGrant(db: Db, target: GrantTarget, principal: GrantPrincipal, role: Role): Promise<void> {
  await assertPrincipalInOrganization(db, target.organizationId, principal);
  await db
    .createQueryBuilder()
    .insert()
    .into(ContentGrant)
    .values({
      targetKind: target.kind,
      targetId: target.id,
      principalKind: principal.kind,
      principalId: principal.id,
      organizationId: target.organizationId,
      role,
      createdAt: new Date(),
    })
    .orUpdate(['role'], ['targetKind', 'targetId', 'principalKind', 'principalId'])
    .execute();
}

/** Removes the principal's grant on the target; having none is a no-op. */
export async function removeGrant(db: Db, target: GrantTarget, principal: GrantPrincipal): Promise<void> {
  await db.delete(ContentGrant, {
    targetKind: target.kind,
    targetId: target.id,
    principalKind: principal.kind,
    principalId: principal.id,
  });
}
