/**
 * Explicit roles on a space or collection for a user or a team. The access function (domain/access/authorize.ts)
 * raises effective roles with them; GitBook's invite and update operations and our PUT all set them here.
 */

import { In, type SelectQueryBuilder } from 'typeorm';
import { ContentGrant, GrantPrincipalKind, GrantTargetKind } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { Team } from '../../entities/Team';
import type { Db } from '../../platform/db/transactions';
import { permissionsOf } from '../access/authorize';
import type { AccessContext } from '../access/context';
import type { Role } from '../access/roles';
import { notFound } from '../errors';

export interface GrantTarget {
  kind: GrantTargetKind;
  id: string;
  organizationId: string;
}

export interface GrantPrincipal {
  kind: GrantPrincipalKind;
  id: string;
}

/**
 * 404 for the first user or team the caller cannot see: a user must be a member (or guest) of the content's
 * organization, a team one of its teams that the caller may view (the access function decides: a guest sees only
 * their own teams).
 */
async function assertVisible(
  access: AccessContext,
  organizationId: string,
  principals: GrantPrincipal[],
): Promise<void> {
  const userIds = [...new Set(principals.filter((p) => p.kind === 'user').map((p) => p.id))];
  const teamIds = [...new Set(principals.filter((p) => p.kind === 'team').map((p) => p.id))];
  if (userIds.length) {
    const members = await access.db.findBy(Member, { organizationId, userId: In(userIds) });
    const found = new Set(members.map((m) => m.userId));
    if (userIds.some((id) => !found.has(id))) throw notFound('user');
  }
  if (teamIds.length) {
    const teams = await access.db.findBy(Team, { organizationId, id: In(teamIds) });
    if (teams.length !== teamIds.length) throw notFound('team');
    for (const team of teams) if (!(await permissionsOf(access, { kind: 'team', team })).view) throw notFound('team');
  }
}

async function writeGrant(db: Db, target: GrantTarget, principal: GrantPrincipal, role: Role | null): Promise<void> {
  if (role === null) {
    await removeGrant(db, target, principal);
    return;
  }
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

/**
 * Gives each principal `role` on the target, replacing any role they had there; `null` (GitBook's guest) takes back
 * the one given there, leaving what they hold otherwise; `undefined` (a PATCH without a role) changes nothing. A
 * principal the caller cannot see is a 404 before anything is written. `access` is the caller's context on the
 * transaction.
 */
export async function setGrants(
  access: AccessContext,
  target: GrantTarget,
  principals: GrantPrincipal[],
  role: Role | null | undefined,
): Promise<void> {
  await assertVisible(access, target.organizationId, principals);
  if (role === undefined) return;
  for (const principal of principals) await writeGrant(access.db, target, principal, role);
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

/** The grants given on the target to users or to teams (alias `g`): the direct grants, not what is inherited. */
export function directGrantsQuery(
  db: Db,
  target: Pick<GrantTarget, 'kind' | 'id'>,
  principalKind: GrantPrincipalKind,
): SelectQueryBuilder<ContentGrant> {
  return db
    .createQueryBuilder(ContentGrant, 'g')
    .where('g.targetKind = :kind AND g.targetId = :id AND g.principalKind = :principalKind', {
      kind: target.kind,
      id: target.id,
      principalKind,
    });
}
