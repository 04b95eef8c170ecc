import { In } from 'typeorm';
import { z } from 'zod';
import type { AccessContext } from '../../domain/access/context';
import type { SamlProvider } from '../../entities/SamlProvider';
import { Team } from '../../entities/Team';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, roleSchema, timestamp } from './common';
import { presentTeams, TeamJson, teamSchema } from './team';
import type { Urls } from './urls';

export const samlProviderSchema = z
  .object({
    object: z.literal('saml-provider'),
    id: z.string(),
    label: z.string(),
    ssoURL: z.string().url().openapi({ description: '`about:blank` until it is set (GitBook requires a URI)' }),
    entityID: z.string(),
    certificate: z.string(),
    defaultTeam: teamSchema.optional().openapi({ description: 'absent when members get no team from the provider' }),
    defaultRole: roleSchema
      .nullable()
      .openapi({ description: 'null: members signing in get no role from the provider' }),
    createdAt: timestamp,
    status: z.string(),
    service: z
      .object({ acsURL: z.string(), startURL: z.string(), entityID: z.string() })
      .openapi({ description: 'what to configure on the identity provider' }),
    urls: z.object({ location: z.string() }),
  })
  .openapi('SamlProvider');

export const ssoEntrySchema = z.object({ id: z.string(), label: z.string(), startURL: z.string() }).openapi('SsoEntry');

/** Where this service answers the SAML exchange of one provider. */
function serviceUrls(provider: SamlProvider, urls: Urls) {
  const entityID = urls.api(`/sso/saml/${provider.id}`);
  return { acsURL: `${entityID}/acs`, startURL: `${entityID}/start`, entityID };
}

export function presentSamlProvider(
  provider: SamlProvider,
  defaultTeam: TeamJson | null,
  urls: Urls,
): Presented<typeof samlProviderSchema> {
  return {
    object: 'saml-provider',
    id: provider.id,
    label: provider.label,
    ssoURL: provider.ssoURL || 'about:blank',
    entityID: provider.entityID,
    certificate: provider.certificate,
    defaultTeam,
    defaultRole: provider.defaultRole,
    createdAt: iso(provider.createdAt),
    status: provider.status,
    service: serviceUrls(provider, urls),
    urls: { location: urls.api(`/orgs/${provider.organizationId}/saml/${provider.id}`) },
  };
}

/** Presents providers with their default teams expanded (loaded once for the whole list). */
export async function presentSamlProviders(
  access: AccessContext,
  providers: SamlProvider[],
  urls: Urls,
): Promise<Array<Presented<typeof samlProviderSchema>>> {
  const teamIds = [...new Set(providers.map((p) => p.defaultTeamId).filter((id): id is string => !!id))];
  const teams = teamIds.length ? await access.db.findBy(Team, { id: In(teamIds) }) : [];
  const presented = await presentTeams(access, teams);
  const byId = new Map(presented.map((t) => [t.id, t]));
  return providers.map((p) => presentSamlProvider(p, (p.defaultTeamId && byId.get(p.defaultTeamId)) || null, urls));
}

export function presentSsoEntry(provider: SamlProvider, urls: Urls): Presented<typeof ssoEntrySchema> {
  return { id: provider.id, label: provider.label, startURL: serviceUrls(provider, urls).startURL };
}
