/**
 * Load-or-404 for resources named in a path. Visibility is then decided by `authorize`. The
 * organization and the space, read by most requests, are read without the query builder (platform/db/rows.ts).
 */
import { authorize } from '../domain/access/authorize';
import type { AccessContext } from '../domain/access/context';
import {
  CHANGE_REQUEST_NUMBER,
  findChangeRequestWithRevision,
  findSpaceWithRevision,
} from '../domain/content/revisions';
import { notFound } from '../domain/errors';
import { findSpaceWithCounters, SpaceCounters } from '../domain/spaces/counters';
import { ChangeRequest } from '../entities/ChangeRequest';
import { Collection } from '../entities/Collection';
import { Organization } from '../entities/Organization';
import type { Revision } from '../entities/Revision';
import { Space } from '../entities/Space';
import { Team } from '../entities/Team';
import { findOneWhere } from '../platform/db/rows';

/** `notFoundName`: the 404 a route answers for anything missing, when its organization is only a path to it. */
export async function loadOrganization(
  access: AccessContext,
  organizationId: string,
  notFoundName = 'organization',
): Promise<Organization> {
  const org = await findOneWhere(access.db, Organization, 'x.id = ?', [organizationId]);
  if (!org) throw notFound(notFoundName);
  return org;
}

/** The organization, or 404 when the caller is not one of its members. */
export async function loadVisibleOrganization(access: AccessContext, organizationId: string): Promise<Organization> {
  const organization = await loadOrganization(access, organizationId);
  await authorize(access, { kind: 'organization', organization }, 'view');
  return organization;
}

export async function loadCollection(access: AccessContext, collectionId: string): Promise<Collection> {
  const collection = await access.db.findOneBy(Collection, { id: collectionId });
  if (!collection) throw notFound('collection');
  return collection;
}

/** A space that is not soft-deleted (use `includeDeleted` for restore and purge-aware reads). */
export async function loadSpace(
  access: AccessContext,
  spaceId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<Space> {
  const space = await findOneWhere(
    access.db,
    Space,
    options.includeDeleted ? 'x.id = ?' : 'x.id = ? AND x.deletedAt IS NULL',
    [spaceId],
  );
  if (!space) throw notFound('space');
  return space;
}

/** A live space with its counters, for the reads that present it: one statement. */
export async function loadSpaceWithCounters(
  access: AccessContext,
  spaceId: string,
): Promise<{ space: Space; counters: SpaceCounters }> {
  const found = await findSpaceWithCounters(access.db, spaceId);
  if (!found) throw notFound('space');
  return found;
}

/** A live space with its current revision (null before it has content), for a read of its content: one statement. */
export async function loadSpaceWithRevision(
  access: AccessContext,
  spaceId: string,
): Promise<{ space: Space; revision: Revision | null }> {
  const found = await findSpaceWithRevision(access.db, spaceId);
  if (!found) throw notFound('space');
  return found;
}

/**
 * A live space, one of its change requests (null when it has none such: the caller answers 404 once the space is
 * authorized) and that change request's head revision, for a read of its content: one statement.
 */
export async function loadChangeRequestWithRevision(
  access: AccessContext,
  spaceId: string,
  idOrNumber: string,
): Promise<{ space: Space; changeRequest: ChangeRequest | null; revision: Revision | null }> {
  const found = await findChangeRequestWithRevision(access.db, spaceId, idOrNumber);
  if (!found) throw notFound('space');
  return found;
}

export async function loadTeam(access: AccessContext, organizationId: string, teamId: string): Promise<Team> {
  const team = await access.db.findOneBy(Team, { id: teamId, organizationId });
  if (!team) throw notFound('team');
  return team;
}

/** A change request of the space, named by its id or by its number in the space. */
export async function loadChangeRequest(
  access: AccessContext,
  space: Space,
  idOrNumber: string,
): Promise<ChangeRequest> {
  const where = CHANGE_REQUEST_NUMBER.test(idOrNumber)
    ? { spaceId: space.id, number: Number(idOrNumber) }
    : { spaceId: space.id, id: idOrNumber };
  const changeRequest = await access.db.findOneBy(ChangeRequest, where);
  if (!changeRequest) throw notFound('change request');
  return changeRequest;
}
