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
    object: z.literal('share-link').openapi({ description: 'always `share-link`' }),
    id: z.string().openapi({ description: 'id of the share link' }),
    name: z.string().openapi({ description: 'a name to tell the link from the others, 0–50 characters' }),
    active: z.boolean().openapi({ description: 'false: its key opens nothing until it is activated again' }),
    key: z.string().openapi({
      description:
        'extension: the secret that opens the site, for `shareKey` parameters (it is also in `urls.published`)',
    }),
    createdAt: timestamp.openapi({ description: 'when the link was created (ISO 8601 date-time)' }),
    urls: z
      .object({
        published: z
          .string()
          .optional()
          .openapi({ description: 'the site opened with this link; absent while the site is not published' }),
      })
      .openapi({ description: 'where the link leads' }),
  })
  .openapi('ShareLink', {
    description:
      'A share link of a site: a secret key that opens the published site to whoever holds it, when its visibility is `share-link`.',
  });

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
