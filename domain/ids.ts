import { randomBytes } from 'crypto';

/** A random, URL-safe, unguessable identifier (120 bits). */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}
