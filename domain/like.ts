/** SQL LIKE helpers for "contains" filters: user text is matched literally, never as a wildcard. */

/** A pattern for `LOWER(column) LIKE :pattern` matching `text` anywhere, case-insensitively (backslash is MySQL's default LIKE escape). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
