import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimeColumn } from './columns';

/** `pending`: the first request runs; `answered`: its answer is kept to replay; `secret`: it was shown once, not kept. */
export type IdempotencyKeyState = 'pending' | 'answered' | 'secret';

/**
 * One `Idempotency-Key` of one caller in one organization (domain/idempotency/keys.ts), shared by every API
 * replica: reserved before the request's own transaction, then holding the answer a repeat gets again.
 */
@Entity('idempotency_keys')
@Index(['expiresAt'])
export class IdempotencyKey {
  /** SHA-256 (hex) of the caller, the organization and the key: the key's scope, so keys cross no tenant. */
  @PrimaryColumn({ type: 'char', length: 64, charset: 'ascii', collation: 'ascii_bin' }) scope: string;
  /** the operation the key was first used on, and SHA-256 (hex) of its method, path and canonical body */
  @Column({ type: 'varchar', length: 80 }) operationId: string;
  @Column({ type: 'char', length: 64, charset: 'ascii', collation: 'ascii_bin' }) requestHash: string;
  @Column({ type: 'varchar', length: 16 }) state: IdempotencyKeyState;
  /** the reservation's holder: only the request that reserved the key records or releases it */
  @Column({ type: 'char', length: 32, charset: 'ascii', collation: 'ascii_bin' }) holder: string;
  /** a reservation whose request outlived this (it crashed) may be taken over by a repeat */
  @TimeColumn() heldUntil: Date;
  @Column({ type: 'smallint', unsigned: true, nullable: true }) status: number | null;
  /** the answer's headers that matter (Location, Content-Type) */
  @Column({ type: 'json', nullable: true }) headers: Record<string, string> | null;
  @Column({ type: 'mediumblob', nullable: true }) body: Buffer | null;
  @TimeColumn() createdAt: Date;
  @TimeColumn() expiresAt: Date;
}
