import { z } from 'zod';
import type { SitePublishingAuth } from '../../entities/SitePublishingAuth';
import type { Presented } from '../../platform/wire/to-wire';

export const sitePublishingAuthSchema = z
  .object({
    object: z.literal('publishing-auth').openapi({ description: 'always `publishing-auth`' }),
    backend: z
      .literal('custom')
      .openapi({ description: 'visitor tokens are signed by the site owner with `privateKey`' }),
    privateKey: z.string().openapi({ description: 'the HS256 key visitor tokens are signed with' }),
  })
  .openapi('SitePublishingAuth', {
    description:
      "A site's visitor token signing key: the site's owner signs visitor tokens (JWT, HS256) with it to open a visitor-auth site and carry claims.",
  });

export function presentSitePublishingAuth(auth: SitePublishingAuth): Presented<typeof sitePublishingAuthSchema> {
  return { object: 'publishing-auth', backend: 'custom', privateKey: auth.privateKey };
}
