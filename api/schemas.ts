/** Schema primitives shared by every route area. */
import { z } from 'zod';
// extends zod with .openapi() before any schema below is built, whoever imports this file first
import './openapi/registry';
import { ROLES } from '../domain/access/roles';
import { EMOJI_MAX, isEmoji } from '../domain/emoji';

/** The alphabet of newId() (base64url). Ours are 21 characters (20 before); anything longer than 64 is not ours. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** An id in a body or query. */
export const resourceId = z.string().min(1).max(64).regex(ID_PATTERN, 'must be an id (letters, digits, "-" and "_")');

/**
 * An id in a path. One outside the id alphabet names nothing, so it answers the 404 of an unknown
 * `resource` (api/validation.ts) without a query: the ids' binary collation still ignores trailing spaces.
 */
export function pathId(resource: string) {
  return z
    .string()
    .refine((id) => ID_PATTERN.test(id), { params: { notFound: resource } })
    .openapi({ pattern: ID_PATTERN.source, description: `id of the ${resource}` });
}

export const emailDomain = z
  .string()
  .min(3)
  .max(253)
  .regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i);

/**
 * Characters no text field takes, as a regex character class: C0 and C1 controls with DEL, and the bidi
 * controls (Unicode's Bidi_Control set), which make text display otherwise than it reads. Multiline text
 * (markdown, certificates) keeps tab, line feed and carriage return. Lone surrogates never get this far:
 * the JSON body parser refuses them (api/middleware/json-body.ts).
 */
const BIDI_CONTROLS = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
const FORBIDDEN = {
  line: `\\u0000-\\u001F\\u007F-\\u009F${BIDI_CONTROLS}`,
  lines: `\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${BIDI_CONTROLS}`,
};

/** Length in code points, as JSON Schema's minLength/maxLength count it: a surrogate pair is one character. */
export function codePointLength(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return s.length - pairs;
}

export interface TextRules {
  min?: number;
  max: number;
  /** leading and trailing whitespace is removed before the checks */
  trim?: boolean;
  /** `line` (default): no controls at all; `lines`: tab and line breaks allowed; `any`: every character (search terms) */
  characters?: 'line' | 'lines' | 'any';
}

/**
 * The one string primitive for text a client sends: lengths counted in code points (as the OpenAPI
 * document's minLength/maxLength are), the control characters above refused with
 * "must not contain control characters". `format` carries checks of its own (`.url()`, `.regex()`).
 */
export function text(rules: TextRules, format: z.ZodString = z.string()) {
  const { min = 0, max, characters = 'line' } = rules;
  const forbidden = characters === 'any' ? null : new RegExp(`[${FORBIDDEN[characters]}]`);
  const hasPattern = format._def.checks.some((c) => c.kind === 'regex');
  return (rules.trim ? format.trim() : format)
    .superRefine((s, ctx) => {
      // code points lie between half the UTF-16 length and the length: count only when that range crosses a limit
      const units = s.length;
      const length = units > max || units < 2 * min ? codePointLength(s) : units;
      if (length < min) ctx.addIssue({ code: 'too_small', type: 'string', minimum: min, inclusive: true });
      else if (length > max) ctx.addIssue({ code: 'too_big', type: 'string', maximum: max, inclusive: true });
      else if (forbidden?.test(s)) ctx.addIssue({ code: 'custom', message: 'must not contain control characters' });
    })
    .openapi({
      ...(min > 0 ? { minLength: min } : {}),
      maxLength: max,
      // a format's own pattern stays the documented one (OpenAPI allows one per schema)
      ...(forbidden && !hasPattern ? { pattern: `^[^${FORBIDDEN[characters as 'line' | 'lines']}]*$` } : {}),
    });
}

/** GitBook's `Emoji`: one emoji, as its character(s) or its code points (domain/emoji.ts). */
export const emoji = text({ min: 1, max: EMOJI_MAX })
  .refine(isEmoji, 'must be one emoji, as its character(s) (🚀) or its code points in hexadecimal joined by - (1f680)')
  .openapi({
    description: 'one emoji, as its character(s) (`🚀`) or its code points in hexadecimal (`1f680`)',
    example: '🚀',
  });

type Body = z.ZodTypeAny;
const given = (value: unknown, key: string) => (value as Record<string, unknown>)[key] !== undefined;

/** A body with exactly one of `keys`: refused otherwise, and documented as `oneOf` required. */
export function exactlyOneOf<T extends Body>(schema: T, keys: string[]) {
  return schema
    .superRefine((value, ctx) => {
      if (keys.filter((k) => given(value, k)).length !== 1)
        ctx.addIssue({ code: 'custom', message: `must have exactly one of ${keys.join(', ')}` });
    })
    .openapi({ oneOf: keys.map((k) => ({ required: [k] })) });
}

/** A body with at least one of `keys`: refused otherwise, and documented as `anyOf` required. */
export function atLeastOneOf<T extends Body>(schema: T, keys: string[]) {
  return schema
    .superRefine((value, ctx) => {
      if (!keys.some((k) => given(value, k)))
        ctx.addIssue({ code: 'custom', message: `must contain ${keys.join(' or ')}` });
    })
    .openapi({ anyOf: keys.map((k) => ({ required: [k] })) });
}

/** A body with at least one field: refused otherwise, and documented as `minProperties: 1`. */
export function nonEmpty<T extends Body>(schema: T) {
  return schema
    .refine((value) => Object.keys(value as object).length > 0, 'must have at least one field')
    .openapi({ minProperties: 1 });
}

/** A content's default level: a role, or null to inherit from the parent (GitBook's "inherit" means the same). */
export const defaultLevel = z
  .enum([...ROLES, 'inherit'])
  .nullable()
  .transform((level) => (level === 'inherit' ? null : level))
  .openapi({ description: 'a role; null or "inherit": inherit from the parent collection or the organization' });

function hasScheme(value: string, schemes: readonly string[]): boolean {
  try {
    return schemes.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * A URL the service fetches (through the guarded client) or a client follows as a link: http or https, at most
 * 2048 characters. No other scheme: `javascript:` or `data:` in a field a client renders would run in its page.
 */
export const httpUrl = text({ max: 2048 }, z.string().url()).refine(
  (u) => hasScheme(u, ['http:', 'https:']),
  'must be an http or https URL',
);

/** A URL a browser loads without a click (a logo, an icon) or a sign-in endpoint: https only (docs/decisions/organizations.md). */
export const httpsUrl = text({ max: 2048 }, z.string().url()).refine(
  (u) => hasScheme(u, ['https:']),
  'must be an https URL',
);
