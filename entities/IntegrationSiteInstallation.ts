import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ID_LENGTH, RefColumn, TimeColumn } from './columns';
import type { InstallationStatus } from './IntegrationInstallation';

/** An installation extended to one site of its organization. */
@Entity('integration_site_installations')
@Index(['integrationId', 'createdAt', 'siteId'])
export class IntegrationSiteInstallation {
  @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) installationId: string;
  /** Also indexed alone: deleting a site finds its rows. */
  @Index() @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) siteId: string;
  @RefColumn() integrationId: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16 }) status: InstallationStatus;
  @Column({ type: 'json' }) configuration: Record<string, unknown>;
  @Column({ type: 'json' }) externalIds: string[];
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
