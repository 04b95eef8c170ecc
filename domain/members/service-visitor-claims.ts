/**
 * `serviceVisitorClaims` of `POST …/ping`: a JWT that tells the organization's published sites who this
 * member is (`sub` the user, `organization`, `role`), valid for an hour, signed by the service (HS256).
 * Its key is derived from CURSOR_SECRET with HKDF under a label of its own, so it needs no setting of its
 * own and a cursor's MAC never serves as a token's signature or the other way round.
 */
import { hkdfSync } from 'crypto';
import { SignJWT } from 'jose';
import type { Member } from '../../entities/Member';

const LIFETIME_SECONDS = 3600;

/** The HS256 key of these tokens: whoever holds CURSOR_SECRET can verify them. */
export function serviceVisitorClaimsKey(serviceSecret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', serviceSecret, '', 'service-visitor-claims', 32));
}

export async function signServiceVisitorClaims(serviceSecret: string, issuer: string, member: Member): Promise<string> {
  return new SignJWT({ organization: member.organizationId, role: member.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(member.userId)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_SECONDS}s`)
    .sign(serviceVisitorClaimsKey(serviceSecret));
}
