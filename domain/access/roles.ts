/** The spec's role enumeration, ordered from least to most powerful. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function roleRank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

export function atLeast(role: Role | null | undefined, required: Role): boolean {
  return roleRank(role) >= roleRank(required);
}

export function maxRole(a: Role | null, b: Role | null): Role | null {
  return roleRank(a) >= roleRank(b) ? a : b;
}
