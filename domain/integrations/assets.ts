/**
 * Who gets an integration's script and images (urls.publicEndpoint, urls.assets): whoever sees the
 * integration (public and unlisted ones: anyone; a private one: its owner organization's members), and for a
 * private one also anyone while it is installed on a published site, whose visitors' browsers load its
 * script without a token. Anyone else must not learn the name exists nor read what its author inlined.
 */
import type { Integration } from '../../entities/Integration';
import { permissionsOf } from '../access/authorize';
import type { AccessContext } from '../access/context';
import { coversPublishedSite } from './installation-queries';

export async function servesAssets(access: AccessContext, integration: Integration): Promise<boolean> {
  if ((await permissionsOf(access, { kind: 'integration', integration })).view) return true;
  return coversPublishedSite(access.db, integration);
}
