/** `secrets rotate`: what the operator runs after putting a new key first in INTEGRATION_SECRETS_KEY. */
import type { DataSource } from 'typeorm';
import { RotationReport, rotateIntegrationSecrets } from '../domain/integrations/secrets-rotation';
import { loadIntegrationSecretsKeys } from '../platform/config';
import { CliError, fieldsText } from './output';

/** The key ring, read before the database is opened; a missing or short key is `unavailable`, as bad database settings are. */
export function secretsKeyRing(): string[] {
  try {
    return loadIntegrationSecretsKeys();
  } catch (err) {
    throw new CliError('unavailable', err instanceof Error ? err.message : String(err));
  }
}

/** Rotates every row; rows no key opens are left as they are and fail the command (exit 1) once the others are done. */
export async function rotateSecretsCommand(ds: DataSource, secretsKeys: string[]): Promise<RotationReport> {
  const report = await rotateIntegrationSecrets(ds, { integrations: { secretsKeys } });
  if (report.unreadable.length)
    throw new CliError(
      'error',
      `no key of INTEGRATION_SECRETS_KEY opens the secrets of ${report.unreadable.length} integration(s): ${report.unreadable.join(', ')} ` +
        `(re-encrypted ${report.reencrypted}, already current ${report.current}); add the key they were written with to the ring and run again`,
    );
  return report;
}

export function rotationText(report: RotationReport): string {
  return fieldsText({ reencrypted: report.reencrypted, current: report.current });
}
