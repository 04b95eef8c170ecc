/**
 * A new space made for a site: site create's `spaces: "empty" | "sample"`, and `spaceId: null` on
 * section and site-space create. It is a private space at the organization's root; `sample` fills it
 * from the product-guide starter template (domain/content/templates).
 */

import type { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';

import { applyTemplate } from '../content/templates/apply';
import { createSpace, TITLE_MAX } from '../spaces/spaces';

export type NewSpaceKind = 'empty' | 'sample';
const SAMPLE_TEMPLATE = 'product-guide';

export interface NewSpaceOptions {
  createdById: string;
  appBaseUrl: string;
}

export async function createSpaceForSite(
  db: WorkTx,
  organizationId: string,
  title: string,
  kind: NewSpaceKind,
  options: NewSpaceOptions,
): Promise<Space> {
  const space = await createSpace(
    db,
    organizationId,
    null,
    { title: Array.from(title).slice(0, TITLE_MAX).join('') },
    options.createdById,
  );
  if (kind === 'sample') await applyTemplate(db, space.id, { id: SAMPLE_TEMPLATE, contentRefs: {} }, options);
  return space;
}
