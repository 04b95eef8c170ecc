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
    object: z.literal('saml-provider').openapi({ description: 'always `saml-provider`' }),
    id: z.string().openapi({ description: 'id of the SAML provider' }),
    label: z.string().openapi({ description: 'name shown to members on the sign-in entry' }),
    ssoURL: z.string().url().openapi({ description: '`about:blank` until it is set (GitBook requires a URI)' }),
    entityID: z.string().openapi({ description: 'entity id of the identity provider; empty until it is set' }),
    certificate: z
      .string()
      .openapi({ description: "the identity provider's X.509 certificate, as PEM; empty until it is set" }),
    defaultTeam: teamSchema.optional().openapi({ description: 'absent when members get no team from the provider' }),
    defaultRole: roleSchema
      .nullable()
      .openapi({ description: 'null: members signing in get no role from the provider' }),
    createdAt: timestamp.openapi({ description: 'when the provider was added (ISO 8601 date-time)' }),
    status: z.string().openapi({
      description:
        '`active` once `entityID`, `ssoURL` and `certificate` are all set (members can sign in with it); else `pending`',
    }),
    service: z
      .object({
        acsURL: z.string().openapi({ description: 'assertion consumer service URL of this service for the provider' }),
        startURL: z.string().openapi({ description: 'URL that starts a sign-in through this provider' }),
        entityID: z.string().openapi({ description: "this service's entity id for the provider" }),
      })
      .openapi({ description: 'what to configure on the identity provider' }),
    urls: z
      .object({ location: z.string().openapi({ description: 'API URL of the provider' }) })
      .openapi({ description: 'where the provider is found' }),
  })
  .openapi('SamlProvider', {
    description: "A SAML identity provider the organization's members can sign in with (its configuration).",
  });

export const ssoEntrySchema = z
  .object({
    id: z.string().openapi({ description: 'id of the SAML provider' }),
    label: z.string().openapi({ description: 'name of the provider, to show on the sign-in button' }),
    startURL: z.string().openapi({ description: 'URL that starts a sign-in through this provider' }),
  })
  .openapi('SsoEntry', { description: 'A way to sign in to the organization: one of its active SAML providers.' });

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
