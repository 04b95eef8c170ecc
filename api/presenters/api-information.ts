/** GitBook's ApiInformation: which release of the service answers. */
import { z } from 'zod';
import type { Release } from '../../platform/release';
import type { Presented } from '../../platform/wire/to-wire';

export const apiInformationSchema = z
  .object({
    version: z.string().openapi({ description: 'the release of the service (its package version)' }),
    build: z.string().openapi({ description: 'when that release was built, ISO 8601 UTC' }),
  })
  .openapi('ApiInformation', { description: 'The release of the service that answers, and its build date.' });

export function presentApiInformation(release: Release): Presented<typeof apiInformationSchema> {
  return { version: release.version, build: release.build.toISOString() };
}
