/** SAML identity providers of an organization (configuration only; the SAML exchange itself is not part of this API). */
import { SelectQueryBuilder } from 'typeorm';
import type { Db } from '../db';
import { badRequest, notFound } from '../errors';
import { newId } from '../ids';
import type { Role } from '../access/roles';
import { SamlProvider } from '../../entities/SamlProvider';
import { Team } from '../../entities/Team';
import { canonicalCertificate } from './certificate';

export interface SamlProviderInput {
  label: string;
  entityID: string;
  certificate: string;
  ssoURL: string;
  defaultTeam?: string | null;
  defaultRole?: Role | null;
}

export type SamlProviderPatch = Partial<SamlProviderInput>;

async function assertTeamOfOrganization(db: Db, organizationId: string, teamId: string): Promise<void> {
  if (!(await db.existsBy(Team, { id: teamId, organizationId }))) throw badRequest(`defaultTeam: "${teamId}" is not a team of this organization`);
}

export async function createSamlProvider(db: Db, organizationId: string, input: SamlProviderInput): Promise<SamlProvider> {
  if (input.defaultTeam) await assertTeamOfOrganization(db, organizationId, input.defaultTeam);
  const provider = db.create(SamlProvider, {
    id: newId(),
    organizationId,
    label: input.label,
    entityID: input.entityID,
    certificate: canonicalCertificate(input.certificate),
    ssoURL: input.ssoURL,
    defaultTeamId: input.defaultTeam ?? null,
    defaultRole: input.defaultRole ?? null,
    status: 'active',
    createdAt: new Date(),
  });
  await db.insert(SamlProvider, provider);
  return provider;
}

export async function updateSamlProvider(db: Db, provider: SamlProvider, patch: SamlProviderPatch): Promise<SamlProvider> {
  if (patch.defaultTeam) await assertTeamOfOrganization(db, provider.organizationId, patch.defaultTeam);
  const changes: Partial<SamlProvider> = {
    ...(patch.label !== undefined ? { label: patch.label } : {}),
    ...(patch.entityID !== undefined ? { entityID: patch.entityID } : {}),
    ...(patch.certificate !== undefined ? { certificate: canonicalCertificate(patch.certificate) } : {}),
    ...(patch.ssoURL !== undefined ? { ssoURL: patch.ssoURL } : {}),
    ...(patch.defaultTeam !== undefined ? { defaultTeamId: patch.defaultTeam } : {}),
    ...(patch.defaultRole !== undefined ? { defaultRole: patch.defaultRole } : {}),
  };
  if (Object.keys(changes).length) await db.update(SamlProvider, { id: provider.id }, changes);
  return Object.assign(provider, changes);
}

export async function findSamlProvider(db: Db, organizationId: string, samlProviderId: string): Promise<SamlProvider> {
  const provider = await db.findOneBy(SamlProvider, { id: samlProviderId, organizationId });
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
