/**
 * Where new content goes: the `parent` collection named in a body, or the organization root (null).
 * The organization must be visible (else 404); a parent that does not exist there or that the caller
 * cannot see is a 400 naming the field; then the caller needs `create` on the parent, or the
 * organization's `createContent` at its root (else 403).
 */
import { authorize, permissionsOf } from '../domain/access/authorize';
import type { AccessContext } from '../domain/access/context';
import { findParentCollection, parentNotFound } from '../domain/collections/collections';
import type { Collection } from '../entities/Collection';
import type { Organization } from '../entities/Organization';

export async function authorizeParent(
  access: AccessContext,
  organization: Organization,
  parentId: string | null,
): Promise<Collection | null> {
  await authorize(access, { kind: 'organization', organization }, 'view');
  if (parentId === null) {
    await authorize(access, { kind: 'organization', organization }, 'createContent');
    return null;
  }
  const parent = await findParentCollection(access.db, organization.id, parentId);
  if (!(await permissionsOf(access, { kind: 'collection', collection: parent })).view) throw parentNotFound();
  await authorize(access, { kind: 'collection', collection: parent }, 'create');
  return parent;
}
