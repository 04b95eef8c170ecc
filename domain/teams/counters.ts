/** The counters a Team resource shows, computed for a whole page of teams at once. */
import { In } from 'typeorm';
import { Collection } from '../../entities/Collection';
import { ContentGrant } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { Space } from '../../entities/Space';
import { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import type { Db } from '../../platform/db/transactions';

export interface TeamCounters {
  /** members of the team who are members of its organization */
  members: number;
  /** distinct non-deleted spaces reachable through the team's grants on spaces or on collections containing them */
  spaces: number;
}

export async function teamCounters(db: Db, teams: Team[]): Promise<Map<string, TeamCounters>> {
  const counters = new Map<string, TeamCounters>(teams.map((t) => [t.id, { members: 0, spaces: 0 }]));
  if (!teams.length) return counters;
  const teamIds = teams.map((t) => t.id);
  const organizationIds = [...new Set(teams.map((t) => t.organizationId))];

  const memberRows: Array<{ teamId: string; n: string | number }> = await db
    .createQueryBuilder(TeamMember, 'tm')
    .innerJoin(Member, 'm', 'm.userId = tm.userId')
    .innerJoin(Team, 't', 't.id = tm.teamId AND t.organizationId = m.organizationId')
    .select('tm.teamId', 'teamId')
    .addSelect('COUNT(*)', 'n')
    .where('tm.teamId IN (:...teamIds)', { teamIds })
    .groupBy('tm.teamId')
    .getRawMany();
  for (const r of memberRows) counters.get(r.teamId)!.members = Number(r.n);

  const grants = await db.find(ContentGrant, {
    where: { principalKind: 'team', principalId: In(teamIds) },
    select: { targetKind: true, targetId: true, principalId: true },
  });
  if (!grants.length) return counters;

  // A collection grant reaches the spaces of the collection and of every collection nested in it.
  const collections = await db.find(Collection, {
    where: { organizationId: In(organizationIds) },
    select: { id: true, parentId: true },
  });
  const children = new Map<string, string[]>();
  for (const c of collections) if (c.parentId) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id]);
  const reachedCollections = new Map<string, Set<string>>();
  const reachedSpaces = new Map<string, Set<string>>();
  for (const g of grants) {
    if (g.targetKind === 'space') {
      reachedSpaces.set(g.principalId, (reachedSpaces.get(g.principalId) ?? new Set()).add(g.targetId));
      continue;
    }
    const reached = reachedCollections.get(g.principalId) ?? new Set<string>();
    for (const stack = [g.targetId]; stack.length; ) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    reachedCollections.set(g.principalId, reached);
  }

  const spaceIds = [...new Set([...reachedSpaces.values()].flatMap((s) => [...s]))];
  const collectionIds = [...new Set([...reachedCollections.values()].flatMap((s) => [...s]))];
  const qb = db.createQueryBuilder(Space, 's').select(['s.id', 's.parentId']).where('s.deletedAt IS NULL');
  if (spaceIds.length && collectionIds.length)
    qb.andWhere('(s.id IN (:...spaceIds) OR s.parentId IN (:...collectionIds))', { spaceIds, collectionIds });
  else if (spaceIds.length) qb.andWhere('s.id IN (:...spaceIds)', { spaceIds });
  else qb.andWhere('s.parentId IN (:...collectionIds)', { collectionIds });
  const spaces = await qb.getMany();

  for (const teamId of teamIds) {
    const direct = reachedSpaces.get(teamId) ?? new Set<string>();
    const viaCollections = reachedCollections.get(teamId) ?? new Set<string>();
    counters.get(teamId)!.spaces = spaces.filter(
      (s) => direct.has(s.id) || (s.parentId !== null && viaCollections.has(s.parentId)),
    ).length;
  }
  return counters;
}
