/**
 * Inviting people to an organization by e-mail (GitBook's inviteUsersToOrganization): each address becomes a user
 * (created on first sight) and a member with the role asked for, and each person added is sent an invitation with the
 * link that issues their first API token. Someone already a member is left as they are (their role is never lowered
 * by an invitation) and is not mailed again. Without SMTP_URL the members are added all the same, and not mailed.
 */
import { Member } from '../../entities/Member';
import type { Organization } from '../../entities/Organization';
import type { User } from '../../entities/User';
import type { Config } from '../../platform/config';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Role } from '../access/roles';
import { addOrUpdateMember } from '../organizations/membership';
import { ensureUser, normalizeEmail } from '../users/users';
import { createFirstTokenLink } from './first-token';
import { recordInvitationMail } from './mail';

export interface Invitation {
  emails: Array<{ email: string; role: Role | null }>;
  sso: boolean;
}

export interface InvitationResult {
  /** The users added to the organization, in the order of their addresses. */
  users: string[];
  /** Whether they were sent an invitation mail: false when no SMTP server is configured. */
  mailed: boolean;
}

export async function inviteUsersToOrganization(
  db: WorkTx,
  config: Config,
  organization: Organization,
  inviter: User,
  invitation: Invitation,
): Promise<InvitationResult> {
  const now = new Date();
  const mailed = config.mail.smtpUrl !== '';
  const users: string[] = [];
  const seen = new Set<string>();
  for (const { email, role } of invitation.emails) {
    const address = normalizeEmail(email);
    if (seen.has(address)) continue;
    seen.add(address);
    const user = await ensureUser(db, address);
    if (await db.existsBy(Member, { organizationId: organization.id, userId: user.id })) continue;
    await addOrUpdateMember(db, organization.id, user.id, role);
    if (invitation.sso) await db.update(Member, { organizationId: organization.id, userId: user.id }, { sso: true });
    users.push(user.id);
    if (!mailed) continue;
    const link = await createFirstTokenLink(db, config, organization.id, user.id, now);
    await recordInvitationMail(
      db,
      config,
      {
        organizationId: organization.id,
        userId: user.id,
        recipient: address,
        params: {
          organizationTitle: organization.title,
          inviterName: inviter.displayName,
          role,
          inviteTokenId: link.id,
        },
      },
      now,
    );
  }
  return { users, mailed };
}
