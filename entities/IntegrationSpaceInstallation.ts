import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ID_LENGTH, RefColumn, TimeColumn } from './columns';
import type { InstallationStatus } from './IntegrationInstallation';

/** An installation extended to one space of its organization. */
@Entity('integration_space_installations')
@Index(['integrationId', 'createdAt', 'spaceId'])
export class IntegrationSpaceInstallation {
  @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) installationId: string;
  /** Also indexed alone: the space purge finds a space's rows. */
  @Index() @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) spaceId: string;
  @RefColumn() integrationId: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16 }) status: InstallationStatus;
  @Column({ type: 'json' }) configuration: Record<string, unknown>;
  @Column({ type: 'json' }) externalIds: string[];
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
