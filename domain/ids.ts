import { randomBytes, randomInt } from 'crypto';

const LETTERS_AND_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A random, URL-safe, unguessable identifier: a letter or digit, then 15 random bytes in base64url
 * (120 bits), 21 characters of `[A-Za-z0-9_-]`. The first character is never "-" or "_", so shells
 * and argument parsers never take an id for an option. Ids made before (20 characters, one in 32
 * beginning with "-" or "_") keep working: nothing reads an id's length or first character.
 */
export function newId(): string {
  return LETTERS_AND_DIGITS[randomInt(LETTERS_AND_DIGITS.length)] + randomBytes(15).toString('base64url');
}
