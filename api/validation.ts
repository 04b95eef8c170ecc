/** Turns a zod failure into the one-line 400 message every validation error has: "<field>: <rule>". */
import { closest, distance } from 'fastest-levenshtein';
import { ZodError, ZodFirstPartyTypeKind, ZodIssue, ZodTypeAny } from 'zod';
import { AppError, notFound } from '../domain/errors';

/** What an error about the whole body names: no field can be called this, a field named `body` included. */
export const WHOLE_BODY = 'request body';

/** The 413 for a body past its limit, whichever parser met it. */
export function bodyTooLarge(limit: number | undefined): AppError {
  return new AppError(413, `${WHOLE_BODY}: must be at most ${limit} bytes`);
}

function fieldOf(issue: ZodIssue, location: string): string {
  return issue.path.length ? issue.path.join('.') : location;
}

function ruleOf(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return 'is required';
      // an enum given the wrong type reports its options as "'a' | 'b'"
      if (issue.expected.includes("'"))
        return `must be one of ${issue.expected.replace(/'/g, '').split(' | ').join(', ')}`;
      return `must be ${article(issue.expected)}, not ${issue.received}`;
    case 'too_small':
      if (issue.type === 'string')
        return `must be at least ${issue.minimum} character${issue.minimum === 1 ? '' : 's'}`;
      if (issue.type === 'array') return `must have at least ${issue.minimum} items`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.type === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.type === 'array') return `must have at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_enum_value':
      return `must be one of ${issue.options.map(String).join(', ')}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    case 'invalid_string':
      // a schema's own wording (`.regex(re, 'must be an integer')`) beats the generic one
      if (issue.validation === 'regex')
        return issue.message && issue.message !== 'Invalid' ? issue.message : 'has an invalid format';
      return `must be a valid ${String(issue.validation)}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return issue.message;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The 400 for a zod failure. `schema` is what was validated: an unknown field's message then names the closest
 * accepted one, or lists them all; `elsewhere` says where a field of another operation belongs (`parent` of a
 * space is moved by POST …/move).
 */
export function validationError(
  error: ZodError,
  location: string,
  schema?: ZodTypeAny,
  elsewhere: Readonly<Record<string, string>> = {},
): AppError {
  const issue = error.issues[0];
  // a path id outside the id alphabet (pathId in api/schemas.ts) names nothing
  if (issue.code === 'custom' && typeof issue.params?.notFound === 'string') return notFound(issue.params.notFound);
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
    const key = issue.keys[0];
    const hint = issue.path.length === 0 && elsewhere[key] ? elsewhere[key] : acceptedHint(key, schema, issue.path);
    return new AppError(400, `${prefix}${key}: unknown field${hint ? `; ${hint}` : ''}`);
  }
  return new AppError(400, `${fieldOf(issue, location)}: ${ruleOf(issue)}`);
}

/** How many accepted fields a message lists at most; beyond, it points at the reference. */
const LISTED_FIELDS = 12;

/** "did you mean `title`?" for a near miss, else the accepted fields, from the object at `path` in `schema`. */
function acceptedHint(key: string, schema: ZodTypeAny | undefined, path: (string | number)[]): string | undefined {
  const accepted = schema && fieldsAt(schema, path);
  if (!accepted?.length) return undefined;
  const near = closest(key, accepted);
  // one edit for a short name, two from five letters on (a swap of two letters, `titel`, is two)
  if (distance(key.toLowerCase(), near.toLowerCase()) <= Math.max(1, Math.floor(near.length / 2.5)))
    return `did you mean ${near}?`;
  if (accepted.length > LISTED_FIELDS) return 'see the operation in /v1/openapi.json for the accepted fields';
  return `accepted: ${accepted.join(', ')}`;
}

/** The keys of the object schema found by following `path` into `schema` (through wrappers, arrays and records). */
function fieldsAt(schema: ZodTypeAny, path: (string | number)[]): string[] | undefined {
  let current: ZodTypeAny | undefined = schema;
  for (let i = 0; current; ) {
    const def = current._def as { typeName: ZodFirstPartyTypeKind } & Record<string, unknown>;
    switch (def.typeName) {
      case ZodFirstPartyTypeKind.ZodOptional:
      case ZodFirstPartyTypeKind.ZodNullable:
      case ZodFirstPartyTypeKind.ZodDefault:
      case ZodFirstPartyTypeKind.ZodReadonly:
        current = def.innerType as ZodTypeAny;
        continue;
      case ZodFirstPartyTypeKind.ZodEffects:
        current = def.schema as ZodTypeAny;
        continue;
      case ZodFirstPartyTypeKind.ZodObject: {
        const shape = (def.shape as () => Record<string, ZodTypeAny>)();
        if (i === path.length) return Object.keys(shape);
        current = shape[String(path[i++])];
        continue;
      }
      case ZodFirstPartyTypeKind.ZodArray:
        current = def.type as ZodTypeAny;
        i++;
        continue;
      case ZodFirstPartyTypeKind.ZodRecord:
        current = def.valueType as ZodTypeAny;
        i++;
        continue;
      default:
        return undefined;
    }
  }
  return undefined;
}
