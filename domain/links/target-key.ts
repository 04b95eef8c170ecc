/**
 * How the link index names what a link points to: a hash of its kind and target, so the index finds every
 * link to a page, file, space or OpenAPI spec by one key, however the link was written.
 */
import { hashOf } from '../content/objects';

export const linkTargetKey = (kind: string, target: string): string => hashOf(`${kind}:${target}`);

/** Path links are stored with a leading slash, which no id has. */
export const PATH_PREFIX = '/';
