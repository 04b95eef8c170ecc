/** The access context reads only the collections a decision needs: a chain upwards, or what lies inside grants. */

import { spaceRole, viewableContent } from '../../domain/access/authorize';
import { AccessContext } from '../../domain/access/context';
import { createCollection } from '../../domain/collections/collections';
import { createSpace } from '../../domain/spaces/spaces';
import { ContentGrant } from '../../entities/ContentGrant';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

async function nestedContent() {
  const fx = await createOrg(server.ds);
  return inTransaction(server.ds, async (db) => {
    const top = await createCollection(db, fx.org.id, null, { title: 'Top' });
    const middle = await createCollection(db, fx.org.id, top, { title: 'Middle' });
    const deep = await createCollection(db, fx.org.id, middle, { title: 'Deep' });
    const elsewhere = await createCollection(db, fx.org.id, null, { title: 'Elsewhere' });
    const space = await createSpace(db, fx.org.id, deep, { title: 'Deep space' });
    return { fx, top, middle, deep, elsewhere, space };
  });
}

describe('access context', () => {
  it('walks a collection chain nearest first, within the organization only', async () => {
    const { fx, top, middle, deep } = await nestedContent();
    const ctx = new AccessContext(server.ds.manager, fx.admin.user.id);
    expect((await ctx.collectionChain(fx.org.id, deep.id)).map((c) => c.id)).toEqual([deep.id, middle.id, top.id]);
    expect((await ctx.collectionChain(fx.org.id, deep.id))[0].title).toBe('Deep');
    const other = await createOrg(server.ds);
    expect(await ctx.collectionChain(other.org.id, deep.id)).toEqual([]);
  });

  it('gives a guest granted the top collection the space three levels down, and nothing beside it', async () => {
    const { fx, top, middle, deep, elsewhere, space } = await nestedContent();
    const guest = await addMember(server.ds, fx.org, null);
    await server.ds.manager.insert(ContentGrant, {
      targetKind: 'collection',
      targetId: top.id,
      principalKind: 'user',
      principalId: guest.user.id,
      organizationId: fx.org.id,
      role: 'comment',
      createdAt: new Date(),
    });
    const ctx = new AccessContext(server.ds.manager, guest.user.id);
    expect(await spaceRole(ctx, space)).toBe('comment');
    const viewable = await viewableContent(ctx, fx.org.id);
    expect(viewable.everything).toBe(false);
    if (!viewable.everything) expect(viewable.collectionIds.sort()).toEqual([top.id, middle.id, deep.id].sort());
    expect(viewable.everything === false && viewable.collectionIds.includes(elsewhere.id)).toBe(false);
  });
});
