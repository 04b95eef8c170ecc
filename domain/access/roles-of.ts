/** The role a caller holds on content and on sites, from which every content policy derives its permissions. */
import type { Collection } from '../../entities/Collection';
import type { Space } from '../../entities/Space';
import { AccessContext } from './context';
import { maxRole, Role } from './roles';

async function contentRole(
  ctx: AccessContext,
  organizationId: string,
  own: { kind: 'space' | 'collection'; id: string; defaultLevel: Role | null; parentId: string | null },
): Promise<Role | null> {
  const member = await ctx.membership(organizationId);
  if (!member) return null;
  if (member.role === 'admin') return 'admin';
  const chain = await ctx.collectionChain(organizationId, own.parentId);
  let inherited: Role | null = null;
  if (member.role) {
    inherited = own.defaultLevel ?? chain.find((c) => c.defaultLevel)?.defaultLevel ?? member.role;
  }
  let granted: Role | null = null;
  for (const g of await ctx.grantsOn(own.kind, own.id)) granted = maxRole(granted, g.role);
  for (const c of chain) for (const g of await ctx.grantsOn('collection', c.id)) granted = maxRole(granted, g.role);
  return maxRole(inherited, granted);
}

export async function spaceRole(ctx: AccessContext, space: Space): Promise<Role | null> {
  return contentRole(ctx, space.organizationId, {
    kind: 'space',
    id: space.id,
    defaultLevel: space.defaultLevel,
    parentId: space.parentId,
  });
}

export async function collectionRole(ctx: AccessContext, collection: Collection): Promise<Role | null> {
  return contentRole(ctx, collection.organizationId, {
    kind: 'collection',
    id: collection.id,
    defaultLevel: collection.defaultLevel,
    parentId: collection.parentId,
  });
}

/** The role a caller holds on every site of an organization: their organization role (a guest holds none). */
export async function siteRole(ctx: AccessContext, organizationId: string): Promise<Role | null> {
  return (await ctx.membership(organizationId))?.role ?? null;
}
