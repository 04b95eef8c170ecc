/**
 * The scopes an installation acts with. An integration's owner publishes the scopes it asks for; each
 * installing organization grants them, once at install and again only through one of its admins
 * repeating the install call. A token of the installation holds the scopes both sides agree on, so a
 * republish that asks for more changes no installation's powers, and one that asks for less applies at once.
 */
/** What an installation's tokens may use: published and granted. */
export function effectiveScopes(published: readonly string[], granted: readonly string[]): string[] {
  return published.filter((scope) => granted.includes(scope));
}

/** Published scopes the installing organization has not granted yet (shown as `scopesPendingApproval`). */
export function scopesPendingApproval(published: readonly string[], granted: readonly string[]): string[] {
  return published.filter((scope) => !granted.includes(scope));
}
