/** The role ladder's rules; the ladder itself is shared vocabulary (entities/vocabulary.ts). */
import { ROLES, type Role } from '../../entities/vocabulary';

export { ROLES, type Role };

export function roleRank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

export function atLeast(role: Role | null | undefined, required: Role): boolean {
  return roleRank(role) >= roleRank(required);
}
