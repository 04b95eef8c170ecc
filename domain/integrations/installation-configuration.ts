/**
 * An installation's configuration against what the integration declares in `configurations.account`,
 * `.space` or `.site` (GitBook's `{properties, required}`; the `{componentId}` form declares nothing).
 * A declared property must have its declared type (and one of its `enum` values); any other key is the
 * integration's own (GitBook's configuration object allows additional properties: integrations keep
 * their own state there). A missing required property leaves the installation `pending`, not refused.
 */

import type { Integration } from '../../entities/Integration';
import type { InstallationStatus } from '../../entities/IntegrationInstallation';
import { badRequest } from '../errors';

export type ConfigurationLevel = 'account' | 'space' | 'site';
export type Configuration = Record<string, unknown>;

interface DeclaredProperty {
  type?: string;
  enum?: unknown[];
}
interface DeclaredConfiguration {
  properties: Record<string, DeclaredProperty>;
  required?: string[];
}

function declared(integration: Integration, level: ConfigurationLevel): DeclaredConfiguration | null {
  const c = integration.configurations?.[level] as Partial<DeclaredConfiguration> | undefined;
  return c && typeof c === 'object' && c.properties && typeof c.properties === 'object'
    ? (c as DeclaredConfiguration)
    : null;
}

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
};

/** 400 `configuration.<name>: …` for the first declared property given a value of another type. */
export function checkConfiguration(
  integration: Integration,
  level: ConfigurationLevel,
  configuration: Configuration,
): void {
  const schema = declared(integration, level);
  if (!schema) return;
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = configuration[name];
    // a button has no value; null clears a value
    const check = property.type === undefined ? undefined : TYPE_CHECKS[property.type];
    if (value === undefined || value === null || !check) continue;
    if (!check(value)) throw badRequest(`configuration.${name}: must be a ${property.type}`);
    if (Array.isArray(property.enum) && !property.enum.includes(value))
      throw badRequest(`configuration.${name}: must be one of ${property.enum.join(', ')}`);
  }
}

/** `pending` while a required property of the declared configuration has no value, else `active`. */
export function statusFor(
  integration: Integration,
  level: ConfigurationLevel,
  configuration: Configuration,
): InstallationStatus {
  const required = declared(integration, level)?.required ?? [];
  return required.every(
    (name) => configuration[name] !== undefined && configuration[name] !== null && configuration[name] !== '',
  )
    ? 'active'
    : 'pending';
}
