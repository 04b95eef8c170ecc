/**
 * Teams of an organization. A team title is unique within its organization (case-insensitive), which
 * is what lets `PUT /teams` be idempotent by title.
 */
import { SelectQueryBuilder } from 'typeorm';
import { ContentGrant } from '../../entities/ContentGrant';
import { Organization } from '../../entities/Organization';
import { SamlProvider } from '../../entities/SamlProvider';
import { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import type { Db } from '../../platform/db/transactions';
import { administeredTeams } from '../access/authorize';
import { AccessContext } from '../access/context';
import { conflict } from '../errors';
import { newId } from '../ids';
import { containsPattern } from '../like';
import { replaceTeamMembers } from './team-members';

export interface TeamFilters {
  /** only teams this user can manage: those they own, or all when they are an organization admin */
  manageableBy?: string;
  /** case-insensitive "contains" over the title */
  title?: string;
}

/** Teams of the organization matching the filters (alias `t`). */
export async function teamsQuery(
  db: Db,
  organizationId: string,
  filters: TeamFilters,
): Promise<SelectQueryBuilder<Team>> {
  const qb = db.createQueryBuilder(Team, 't').where('t.organizationId = :organizationId', { organizationId });
  if (filters.title) qb.andWhere('LOWER(t.title) LIKE :title', { title: containsPattern(filters.title) });
  if (filters.manageableBy) {
    const administered = await administeredTeams(new AccessContext(db, filters.manageableBy), organizationId);
    if (administered === 'none') qb.andWhere('1 = 0');
    else if (administered === 'owned') {
      qb.innerJoin(TeamMember, 'owner', 'owner.teamId = t.id AND owner.userId = :ownerId AND owner.role = :owner', {
        ownerId: filters.manageableBy,
        owner: 'owner',
      });
    }
  }
  return qb;
}

/** Teams of the organization the user belongs to (alias `t`, membership joined as `tm`). */
export function teamsOfMemberQuery(
  db: Db,
  organizationId: string,
  userId: string,
  title?: string,
): SelectQueryBuilder<Team> {
  const qb = db
    .createQueryBuilder(Team, 't')
    .innerJoin(TeamMember, 'tm', 'tm.teamId = t.id AND tm.userId = :userId', { userId })
    .where('t.organizationId = :organizationId', { organizationId });
  if (title) qb.andWhere('LOWER(t.title) LIKE :title', { title: containsPattern(title) });
  return qb;
}

/** Serialises title checks of one organization's teams by locking the organization row. */
async function lockTeamTitles(db: Db, organizationId: string): Promise<void> {
  await db
    .createQueryBuilder(Organization, 'o')
    .setLock('pessimistic_write')
    .where('o.id = :organizationId', { organizationId })
    .getOne();
}

async function findByTitle(db: Db, organizationId: string, title: string): Promise<Team | null> {
  return db
    .createQueryBuilder(Team, 't')
    .where('t.organizationId = :organizationId AND LOWER(t.title) = LOWER(:title)', { organizationId, title })
    .getOne();
}

/**
 * Creates the team, or when one with the same title exists, replaces its member list (owners who stay
 * keep their role). Title checks are serialised so two concurrent PUTs cannot create twins.
 */
export async function putTeam(
  db: Db,
  organizationId: string,
  title: string,
  memberIds: string[] | undefined,
): Promise<{ team: Team; created: boolean }> {
  await lockTeamTitles(db, organizationId);
  const existing = await findByTitle(db, organizationId, title);
  const team = existing ?? db.create(Team, { id: newId(), organizationId, title, createdAt: new Date() });
  if (!existing) await db.insert(Team, team);
  if (memberIds !== undefined) await replaceTeamMembers(db, team, memberIds);
  return { team, created: !existing };
}

export async function renameTeam(db: Db, team: Team, title: string): Promise<Team> {
  await lockTeamTitles(db, team.organizationId);
  const same = await findByTitle(db, team.organizationId, title);
  if (same && same.id !== team.id) throw conflict(`title: a team named "${same.title}" already exists`);
  await db.update(Team, { id: team.id }, { title });
  team.title = title;
  return team;
}

/** The team if it belongs to the organization. */
export async function findTeam(db: Db, organizationId: string, teamId: string): Promise<Team | null> {
  return db.findOneBy(Team, { id: teamId, organizationId });
}

/** Deletes the team with its memberships and grants, and unsets it as a SAML default; absent teams are a no-op. */
export async function deleteTeam(db: Db, organizationId: string, teamId: string): Promise<void> {
  if (!(await findTeam(db, organizationId, teamId))) return;
  await db.delete(TeamMember, { teamId });
  await db.delete(ContentGrant, { organizationId, principalKind: 'team', principalId: teamId });
  await db.update(SamlProvider, { organizationId, defaultTeamId: teamId }, { defaultTeamId: null });
  await db.delete(Team, { id: teamId });
}
