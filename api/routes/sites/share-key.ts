/** `shareKey` on the routes that take it: checked against the site's active links, then resolving the published URLs. */

import { notFound } from '../../../domain/errors';
import { siteSpaceOpenedByKey } from '../../../domain/sites/share-links';
import { assertShareKey } from '../../../domain/sites/visitors';
import type { Site } from '../../../entities/Site';
import type { Space } from '../../../entities/Space';
import type { Db } from '../../../platform/db/transactions';
import { openedWithShareKey, withShareKey } from '../../presenters/share-key-urls';
import { siteAddress, siteItemAddress } from '../../presenters/site-urls';
import type { Urls } from '../../presenters/urls';

/** The answer with the site's published URLs opened with the key, when one is given; 404 when it is not an active key of the site. */
export async function withSiteShareKey<T>(
  db: Db,
  site: Site,
  shareKey: string | undefined,
  presented: T,
  urls: Urls,
): Promise<T> {
  if (shareKey === undefined) return presented;
  await assertShareKey(db, site, shareKey);
  return openedWithShareKey(presented, siteAddress(site, urls), shareKey);
}

/** The space with its published URL where the key opens it; 404 when the key opens no published site showing it. */
export async function spaceWithShareKey<T extends { urls: { published: string } }>(
  db: Db,
  space: Space,
  shareKey: string,
  presented: T,
  urls: Urls,
): Promise<T> {
  const opened = await siteSpaceOpenedByKey(db, space, shareKey);
  if (!opened) throw notFound('site');
  return {
    ...presented,
    urls: { ...presented.urls, published: withShareKey(siteItemAddress(opened.site, opened.paths, urls), shareKey) },
  };
}
