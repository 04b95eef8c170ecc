/** Invite links into an organization; the API only exposes their deletion. */

import { LinkInvite } from '../../entities/LinkInvite';
import type { Db } from '../../platform/db/transactions';

/** Deletes the invite if it belongs to the organization; an unknown invite is a no-op. */
export async function deleteLinkInvite(db: Db, organizationId: string, inviteId: string): Promise<void> {
  await db.delete(LinkInvite, { id: inviteId, organizationId });
}
