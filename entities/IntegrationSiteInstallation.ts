import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ID_LENGTH } from './columns';
import { ContentInstallationColumns } from './ContentInstallationColumns';

/** An installation extended to one site of its organization. */
@Entity('integration_site_installations')
@Index(['integrationId', 'createdAt', 'siteId'])
export class IntegrationSiteInstallation extends ContentInstallationColumns {
  /** Also indexed alone: deleting a site finds its rows. */
  @Index() @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) siteId: string;
}
