/** Paths of sections and site spaces in a site's URLs: unique among siblings, derived from titles when not given. */

import { slugOf, uniqueSlug } from '../content/slugs';
import { conflict } from '../errors';

export const PATH_MAX = 100;
/** Room left for the `-n` a derived path may need to differ from its siblings. */
const SUFFIX_ROOM = 6;

/** A path from `title` (`fallback` when it has no letters or digits) that none of `taken` uses. */
export function pathFromTitle(title: string, taken: Set<string>, fallback: string): string {
  return uniqueSlug(slugOf(title, fallback).slice(0, PATH_MAX - SUFFIX_ROOM), taken);
}

/** A given path must be free among the siblings: a duplicate is a 409. */
export function assertPathFree(path: string, taken: Set<string>, siblings: string): void {
  if (taken.has(path)) throw conflict(`path: "${path}" is already used by another ${siblings}`);
}
