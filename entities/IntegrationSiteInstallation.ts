import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ContentInstallationColumns } from './ContentInstallationColumns';
import { ID_LENGTH } from './columns';

/** An installation extended to one site of its organization. */
@Entity('integration_site_installations')
@Index(['integrationId', 'createdAt', 'siteId'])
export class IntegrationSiteInstallation extends ContentInstallationColumns {
  /** Also indexed alone: deleting a site finds its rows. */
  @Index() @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) siteId: string;
}
