/**
 * What a Member resource shows beyond its row: the user and two counters, computed for a whole page
 * of members at once (one query per kind, plus a count per guest member).
 */
import { In } from 'typeorm';
import { Member } from '../../entities/Member';
import { Site } from '../../entities/Site';
import { Space } from '../../entities/Space';
import { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { viewableContent, viewableSites } from '../access/authorize';
import { AccessContext } from '../access/context';
import { whereSpaceViewable } from '../access/viewable';

export interface MemberDetails {
  member: Member;
  user: User;
  /** non-deleted spaces of the organization the member can access */
  spaces: number;
  /** teams of the organization the member belongs to */
  teams: number;
  /** sites of the organization the member can see (GitBook 0.202 requires the count) */
  sites: number;
}

export async function describeMembers(db: Db, organizationId: string, members: Member[]): Promise<MemberDetails[]> {
  if (!members.length) return [];
  const userIds = members.map((m) => m.userId);
  const users = new Map((await db.findBy(User, { id: In(userIds) })).map((u) => [u.id, u]));

  const teamCounts = new Map<string, number>();
  const rows: Array<{ userId: string; n: string | number }> = await db
    .createQueryBuilder(TeamMember, 'tm')
    .innerJoin(Team, 't', 't.id = tm.teamId')
    .select('tm.userId', 'userId')
    .addSelect('COUNT(*)', 'n')
    .where('t.organizationId = :organizationId', { organizationId })
    .andWhere('tm.userId IN (:...userIds)', { userIds })
    .groupBy('tm.userId')
    .getRawMany();
  for (const r of rows) teamCounts.set(r.userId, Number(r.n));

  // Spaces each member can access, counted in SQL from what the access function says they may view
  // (a full member views every live space; a guest only what grants reach).
  const liveSpaces = () =>
    db
      .createQueryBuilder(Space, 's')
      .where('s.organizationId = :organizationId AND s.deletedAt IS NULL', { organizationId });
  let everything: number | null = null;
  let allSites: number | null = null;

  return Promise.all(
    members.map(async (member) => {
      const viewable = await viewableContent(new AccessContext(db, member.userId), organizationId);
      if (viewable.everything && everything === null) everything = await liveSpaces().getCount();
      const accessible = viewable.everything
        ? everything!
        : await whereSpaceViewable(liveSpaces(), 's', viewable).getCount();
      const sites = await viewableSites(new AccessContext(db, member.userId), organizationId);
      if (sites.everything && allSites === null) allSites = await db.countBy(Site, { organizationId });
      const user = users.get(member.userId);
      if (!user) throw new Error(`member ${member.userId} of ${organizationId} has no user row`);
      return {
        member,
        user,
        spaces: accessible,
        teams: teamCounts.get(member.userId) ?? 0,
        sites: sites.everything ? allSites! : sites.siteIds.length,
      };
    }),
  );
}
