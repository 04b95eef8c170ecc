import { z } from 'zod';
import type { Site } from '../../entities/Site';
import type { SiteShareLink } from '../../entities/SiteShareLink';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';
import { withShareKey } from './share-key-urls';
import { publishedOrNull, siteAddress } from './site-urls';
import type { Urls } from './urls';

export const shareLinkSchema = z
  .object({
    object: z.literal('share-link'),
    id: z.string(),
    name: z.string(),
    active: z.boolean(),
    key: z.string().openapi({
      description:
        'extension: the secret that opens the site, for `shareKey` parameters (it is also in `urls.published`)',
    }),
    createdAt: timestamp,
    urls: z.object({
      published: z
        .string()
        .optional()
        .openapi({ description: 'the site opened with this link; absent while the site is not published' }),
    }),
  })
  .openapi('ShareLink');

export function presentShareLink(site: Site, link: SiteShareLink, urls: Urls): Presented<typeof shareLinkSchema> {
  return {
    object: 'share-link',
    id: link.id,
    name: link.name,
    active: link.active,
    key: link.key,
    createdAt: iso(link.createdAt),
    urls: { published: publishedOrNull(site, () => withShareKey(siteAddress(site, urls), link.key)) },
  };
}
