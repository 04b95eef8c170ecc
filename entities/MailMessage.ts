import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';

/** What a message says, by its template: only what is not secret (a first-token link is derived again when sent). */
export interface InvitationMailParams {
  organizationTitle: string;
  inviterName: string;
  /** The organization role given, null for a guest. */
  role: string | null;
  inviteTokenId: string;
}

/**
 * One mail to one person (a job row of its own, docs/jobs.md): written in the transaction that causes it and sent by
 * the `mail-delivery` workflow. `messageId` is fixed when it is written, so every attempt sends the same Message-ID.
 */
@Entity('mail_messages')
@Index(['organizationId', 'createdAt', 'id'])
export class MailMessage {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @Index() @RefColumn() userId: string;
  @Column({ type: 'varchar', length: 320 }) recipient: string;
  @Column({ type: 'varchar', length: 32 }) template: 'invitation';
  @Column({ type: 'json' }) params: InvitationMailParams;
  /** The Message-ID header, angle brackets included. */
  @Column({ type: 'varchar', length: 255 }) messageId: string;
  @TimeColumn() createdAt: Date;
  /** When the server accepted it (250); null until then. */
  @TimeColumn({ nullable: true }) sentAt: Date | null;
  /** The server's last reply, or the error of the last attempt that got none. */
  @Column({ type: 'varchar', length: 512, nullable: true }) lastReply: string | null;
  /** The mail-delivery job. */
  @Column(() => JobState, { prefix: 'delivery' }) delivery: JobState;
}
