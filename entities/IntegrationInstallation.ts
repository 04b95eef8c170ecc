import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type InstallationStatus = 'active' | 'pending' | 'paused';
export type InstallationSelection = 'all' | 'selected';

/** An integration installed on an organization: at most one per integration and organization. */
@Entity('integration_installations')
@Index(['integrationId', 'organizationId'], { unique: true })
@Index(['integrationId', 'createdAt', 'id'])
export class IntegrationInstallation {
  @IdColumn() id: string;
  @RefColumn() integrationId: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16 }) status: InstallationStatus;
  @Column({ type: 'varchar', length: 16, default: 'all' }) spaceSelection: InstallationSelection;
  @Column({ type: 'varchar', length: 16, default: 'all' }) siteSelection: InstallationSelection;
  /** The account configuration (checked against the integration's `configurations.account`). */
  @Column({ type: 'json' }) configuration: Record<string, unknown>;
  @Column({ type: 'json' }) externalIds: string[];
  /**
   * The scopes the installing organization granted: the published ones at install, widened only when one of
   * its admins repeats the install call, narrowed by a republish that drops a scope (domain/integrations/granted-scopes.ts).
   */
  @Column({ type: 'json' }) grantedScopes: string[];
  /** environment.signingSecrets.installation, and the key of the delivery signature. */
  @Column({ type: 'varchar', length: 64, charset: 'ascii', collation: 'ascii_bin' }) signingSecret: string;
  @RefColumn({ nullable: true }) createdById: string | null;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
