/** SAML identity providers of an organization (configuration only; the SAML exchange itself is not part of this API). */
import { SelectQueryBuilder } from 'typeorm';
import { SamlProvider } from '../../entities/SamlProvider';
import { Team } from '../../entities/Team';
import type { Db } from '../../platform/db/transactions';
import type { Role } from '../access/roles';
import { badRequest, notFound } from '../errors';
import { newId } from '../ids';
import { canonicalCertificate } from './certificate';

/** The identity provider's settings may come later (GitBook creates a provider from its label alone). */
export interface SamlProviderInput {
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string | null;
  defaultRole?: Role | null;
}

export type SamlProviderPatch = Partial<SamlProviderInput>;

export type SamlProviderStatus = 'active' | 'pending';

/**
 * A provider can sign members in only once the identity provider's entity id, sign-in URL and
 * certificate are all set (an unset one is stored as ""); until then it is `pending`.
 */
export function samlProviderStatus(
  settings: Pick<SamlProvider, 'entityID' | 'ssoURL' | 'certificate'>,
): SamlProviderStatus {
  return settings.entityID && settings.ssoURL && settings.certificate ? 'active' : 'pending';
}

/** "" leaves the certificate unset; anything else must be a real certificate. */
function storedCertificate(text: string): string {
  return text.trim() ? canonicalCertificate(text) : '';
}

async function assertTeamOfOrganization(db: Db, organizationId: string, teamId: string): Promise<void> {
  if (!(await db.existsBy(Team, { id: teamId, organizationId })))
    throw badRequest(`defaultTeam: "${teamId}" is not a team of this organization`);
}

export async function createSamlProvider(
  db: Db,
  organizationId: string,
  input: SamlProviderInput,
): Promise<SamlProvider> {
  if (input.defaultTeam) await assertTeamOfOrganization(db, organizationId, input.defaultTeam);
  const provider = db.create(SamlProvider, {
    id: newId(),
    organizationId,
    label: input.label,
    entityID: input.entityID ?? '',
    certificate: storedCertificate(input.certificate ?? ''),
    ssoURL: input.ssoURL ?? '',
    defaultTeamId: input.defaultTeam ?? null,
    defaultRole: input.defaultRole ?? null,
    createdAt: new Date(),
  });
  provider.status = samlProviderStatus(provider);
  await db.insert(SamlProvider, provider);
  return provider;
}

/** Locks the provider's row: its status follows from the settings of concurrent patches combined. */
export async function updateSamlProvider(
  db: Db,
  organizationId: string,
  samlProviderId: string,
  patch: SamlProviderPatch,
): Promise<SamlProvider> {
  const provider = await findSamlProvider(db, organizationId, samlProviderId, true);
  if (patch.defaultTeam) await assertTeamOfOrganization(db, organizationId, patch.defaultTeam);
  const changes: Partial<SamlProvider> = {
    ...(patch.label !== undefined ? { label: patch.label } : {}),
    ...(patch.entityID !== undefined ? { entityID: patch.entityID } : {}),
    ...(patch.certificate !== undefined ? { certificate: storedCertificate(patch.certificate) } : {}),
    ...(patch.ssoURL !== undefined ? { ssoURL: patch.ssoURL } : {}),
    ...(patch.defaultTeam !== undefined ? { defaultTeamId: patch.defaultTeam } : {}),
    ...(patch.defaultRole !== undefined ? { defaultRole: patch.defaultRole } : {}),
  };
  const status = samlProviderStatus({ ...provider, ...changes });
  if (status !== provider.status) changes.status = status;
  if (Object.keys(changes).length) await db.update(SamlProvider, { id: provider.id }, changes);
  return Object.assign(provider, changes);
}

export async function findSamlProvider(
  db: Db,
  organizationId: string,
  samlProviderId: string,
  forUpdate = false,
): Promise<SamlProvider> {
  const provider = await db.findOne(SamlProvider, {
    where: { id: samlProviderId, organizationId },
    ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!provider) throw notFound('SAML provider');
  return provider;
}

/** Deletes the provider; an unknown one is a no-op. */
export async function deleteSamlProvider(db: Db, organizationId: string, samlProviderId: string): Promise<void> {
  await db.delete(SamlProvider, { id: samlProviderId, organizationId });
}

/** The organization's providers (alias `p`). */
export function samlProvidersQuery(db: Db, organizationId: string): SelectQueryBuilder<SamlProvider> {
  return db.createQueryBuilder(SamlProvider, 'p').where('p.organizationId = :organizationId', { organizationId });
}

/** Active providers a member can sign in with, oldest first. */
export async function activeSamlProviders(db: Db, organizationId: string): Promise<SamlProvider[]> {
  return db.find(SamlProvider, { where: { organizationId, status: 'active' }, order: { createdAt: 'ASC', id: 'ASC' } });
}
