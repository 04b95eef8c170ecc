/**
 * The short-lived API tokens an integration receives with each event (environment.apiTokens): one
 * for the integration itself and, when the event concerns an installation, one for that
 * installation. They are ordinary api_tokens rows (hashed, revocable, expiring) of the integration's
 * bot user, marked with the integration and the installation; the one access function lets them do
 * only what the integration's scopes allow (domain/access/integration-scopes.ts).
 */
import { LessThanOrEqual } from 'typeorm';
import { ApiToken } from '../../entities/ApiToken';
import type { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import { issueToken } from '../auth/tokens';

/** Expired rows of the integration removed by each issue, at most: issuing never waits on a backlog. */
const EXPIRED_REMOVED_PER_ISSUE = 100;

export async function issueIntegrationTokens(
  db: Db,
  config: Pick<Config, 'integrationTokenTtlSeconds'>,
  { integration, installation }: { integration: Integration; installation?: IntegrationInstallation | null },
): Promise<{ integration: string; installation?: string }> {
  await removeExpiredTokens(db, integration.id);
  const own = await issueOne(db, config, integration, null);
  if (!installation) return { integration: own };
  return { integration: own, installation: await issueOne(db, config, integration, installation) };
}

/** One installation token, asked for by the integration itself (`POST …/installations/{id}/tokens`). */
export async function issueInstallationToken(
  db: Db,
  config: Pick<Config, 'integrationTokenTtlSeconds'>,
  { integration, installation }: { integration: Integration; installation: IntegrationInstallation },
): Promise<string> {
  await removeExpiredTokens(db, integration.id);
  return issueOne(db, config, integration, installation);
}

async function issueOne(
  db: Db,
  config: Pick<Config, 'integrationTokenTtlSeconds'>,
  integration: Integration,
  installation: IntegrationInstallation | null,
): Promise<string> {
  const expiresAt = new Date(Date.now() + config.integrationTokenTtlSeconds * 1000);
  const label = installation ? `installation:${installation.id}` : `integration:${integration.id}`;
  const { secret } = await issueToken(db, integration.botUserId, label, expiresAt, {
    integrationId: integration.id,
    installationId: installation?.id ?? null,
  });
  return secret;
}

/** The token cleanup: a token lives for minutes, so its rows go once expired, a batch at each issue. */
async function removeExpiredTokens(db: Db, integrationId: string): Promise<void> {
  const expired = await db.find(ApiToken, {
    select: { id: true },
    where: { integrationId, expiresAt: LessThanOrEqual(new Date()) },
    take: EXPIRED_REMOVED_PER_ISSUE,
  });
  if (expired.length)
    await db.delete(
      ApiToken,
      expired.map((t) => t.id),
    );
}

/** With an unpublished integration's tombstone: its tokens, dead since the unpublish, go too. */
export async function removeIntegrationTokens(db: Db, integrationId: string): Promise<void> {
  await db.delete(ApiToken, { integrationId });
}
