import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The shared counter of one rate-limit bucket (platform/rate-limits/limiter.ts): the hits handed out
 * in its current window. One row per token and per organization, reused window after window.
 */
@Entity('rate_limit_counters')
export class RateLimitCounter {
  /** `token:<tokenId>` or `organization:<organizationId>` */
  @PrimaryColumn({ type: 'varchar', length: 80, collation: 'utf8mb4_bin' }) bucket: string;
  /** Start of the counted window, in seconds since the epoch. */
  @Column({ type: 'bigint' }) windowStart: string;
  @Column({ type: 'int', unsigned: true }) hits: number;
}
