import { Column, Index, PrimaryColumn } from 'typeorm';
import { ID_LENGTH, RefColumn, TimeColumn } from './columns';
import type { InstallationStatus } from './IntegrationInstallation';

/** The columns of an installation extended to one space or one site (the entity adds which one). */
export abstract class ContentInstallationColumns {
  @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) installationId: string;
  @RefColumn() integrationId: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16 }) status: InstallationStatus;
  @Column({ type: 'json' }) configuration: Record<string, unknown>;
  @Column({ type: 'json' }) externalIds: string[];
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
