import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ContentInstallationColumns } from './ContentInstallationColumns';
import { ID_LENGTH } from './columns';

/** An installation extended to one space of its organization. */
@Entity('integration_space_installations')
@Index(['integrationId', 'createdAt', 'spaceId'])
export class IntegrationSpaceInstallation extends ContentInstallationColumns {
  /** Also indexed alone: the space purge finds a space's rows. */
  @Index() @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) spaceId: string;
}
