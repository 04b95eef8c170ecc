/** Revision rows: the initial empty revision of a space, and new revisions on top of others. */
import { EntityNotFoundError } from 'typeorm';
import { ChangeRequest } from '../../entities/ChangeRequest';
import { Revision, RevisionType } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { columnsOf, findOneWhere, hydrate, queryPrepared } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';
import { newId } from '../ids';
import { ObjectStore } from './objects';
import { emptyTrie } from './trie';

export interface NewRevision {
  spaceId: string;
  changeRequestId?: string | null;
  parents: string[];
  type: RevisionType;
  root: string;
  variables: Record<string, string>;
  createdById: string | null;
}

export async function insertRevision(db: Db, input: NewRevision): Promise<Revision> {
  const revision = db.create(Revision, { id: newId(), changeRequestId: null, ...input, createdAt: new Date() });
  await db.insert(Revision, revision);
  return revision;
}

/** Gives a new space its first, empty revision. */
export async function createInitialRevision(db: Db, space: Space, createdById: string | null): Promise<Revision> {
  const store = new ObjectStore(db);
  const root = emptyTrie(store);
  await store.flush();
  const revision = await insertRevision(db, {
    spaceId: space.id,
    parents: [],
    type: 'initial',
    root,
    variables: {},
    createdById,
  });
  await db.update(Space, { id: space.id }, { revisionId: revision.id });
  space.revisionId = revision.id;
  return revision;
}

/** Read by every content read, so without the query builder (platform/db/rows.ts). */
/** A live (not soft-deleted) space and its current revision, in one statement; null for an unknown or deleted space. */
export async function findSpaceWithRevision(
  db: Db,
  spaceId: string,
): Promise<{ space: Space; revision: Revision | null } | null> {
  const rows = await queryPrepared(
    db,
    `SELECT ${columnsOf(db, Space, 'x')}, ${columnsOf(db, Revision, 'r')} FROM spaces x LEFT JOIN revisions r ON r.id = x.revisionId WHERE x.id = ? AND x.deletedAt IS NULL`,
    [spaceId],
  );
  if (!rows.length) return null;
  return {
    space: hydrate(db, Space, 'x', rows[0]),
    revision: rows[0].r_id ? hydrate(db, Revision, 'r', rows[0]) : null,
  };
}

/** A change request named in a path by its number (`3`) rather than its id. */
export const CHANGE_REQUEST_NUMBER = /^[1-9][0-9]{0,8}$/;

/**
 * A live space, one of its change requests (by id, or by number when `idOrNumber` is one) and that change request's
 * head revision, in one statement: what a read of a change request's content needs before its objects. Null for an
 * unknown or deleted space; `changeRequest` null when the space has no such change request.
 */
export async function findChangeRequestWithRevision(
  db: Db,
  spaceId: string,
  idOrNumber: string,
): Promise<{ space: Space; changeRequest: ChangeRequest | null; revision: Revision | null } | null> {
  const byNumber = CHANGE_REQUEST_NUMBER.test(idOrNumber);
  const rows = await queryPrepared(
    db,
    `SELECT ${columnsOf(db, Space, 'x')}, ${columnsOf(db, ChangeRequest, 'c')}, ${columnsOf(db, Revision, 'r')} FROM spaces x LEFT JOIN change_requests c ON c.spaceId = x.id AND ${byNumber ? 'c.number' : 'c.id'} = ? LEFT JOIN revisions r ON r.id = c.revisionId WHERE x.id = ? AND x.deletedAt IS NULL`,
    [byNumber ? Number(idOrNumber) : idOrNumber, spaceId],
  );
  if (!rows.length) return null;
  return {
    space: hydrate(db, Space, 'x', rows[0]),
    changeRequest: rows[0].c_id ? hydrate(db, ChangeRequest, 'c', rows[0]) : null,
    revision: rows[0].r_id ? hydrate(db, Revision, 'r', rows[0]) : null,
  };
}

/** A revision of the space (of its own content or of one of its change requests); null for any other id. */
export function findRevisionOfSpace(db: Db, spaceId: string, revisionId: string): Promise<Revision | null> {
  return findOneWhere(db, Revision, 'x.id = ? AND x.spaceId = ?', [revisionId, spaceId]);
}

export async function loadRevision(db: Db, id: string): Promise<Revision> {
  const revision = await findOneWhere(db, Revision, 'x.id = ?', [id]);
  if (!revision) throw new EntityNotFoundError(Revision, { id });
  return revision;
}
