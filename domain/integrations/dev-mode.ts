/**
 * Development mode (`gitbook dev`): the integration's events go to a tunnel, through the guarded
 * fetch, which refuses private and loopback addresses unless the configuration allows loopback
 * (tests). `all=false` sends only the events of the owner organization (events.ts eventEndpoint).
 * An event keeps the tunnel it was written for; switching dev mode off stops new deliveries only.
 */

import { Integration } from '../../entities/Integration';
import type { Db } from '../../platform/db/transactions';

export interface DevelopmentMode {
  tunnelUrl: string;
  all: boolean;
}

export async function setDevelopmentMode(db: Db, integration: Integration, mode: DevelopmentMode): Promise<void> {
  await db.update(Integration, { id: integration.id }, { devTunnelUrl: mode.tunnelUrl, devAll: mode.all });
}

export async function disableDevelopmentMode(db: Db, integration: Integration): Promise<void> {
  await db.update(Integration, { id: integration.id }, { devTunnelUrl: null, devAll: false });
}
