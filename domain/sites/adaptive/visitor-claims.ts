/**
 * A visitor's claims, checked against the site's adaptive schema with ajv. Signed claims come from a
 * verified visitor token: the claims the schema declares must have their declared type (400 naming
 * the claim), the rest (the token's registered claims, an identity provider's extras) are dropped, so
 * conditions only ever see declared claims. Unsigned claims come as GitBook's URL parameters
 * `visitor.<name>=<value>` and must be declared in the `unsigned` group; their text is coerced to the
 * declared type ("true" to a boolean). Together they form `visitor.claims`, the unsigned ones under `unsigned`.
 */
import Ajv, { ValidateFunction } from 'ajv';
import { AppError, badRequest } from '../../errors';
import type { VisitorClaims } from './evaluate';
import { ADAPTIVE_SCHEMA_BOUNDS, AdaptiveSchema, describeAjvError, firstAjvError } from './json-schema';

/** Compiled validators by schema text, the least recently used dropped (ajv keeps what it compiles). */
class Validators {
  /** null: the schema did not compile, remembered so it is not compiled again on every request */
  private readonly compiled = new Map<string, { schema: object; validate: ValidateFunction | null }>();

  constructor(
    private readonly ajv: Ajv,
    private readonly size = 100,
  ) {}

  of(schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    const entry = this.compiled.get(key) ?? { schema, validate: this.compile(schema) };
    this.compiled.delete(key);
    this.compiled.set(key, entry);
    if (this.compiled.size > this.size) {
      const [oldestKey, oldest] = this.compiled.entries().next().value!;
      this.compiled.delete(oldestKey);
      this.ajv.removeSchema(oldest.schema);
    }
    // a schema stored before its bounds (json-schema.ts) may not compile: the site's problem, not a 500
    if (!entry.validate)
      throw new AppError(
        409,
        "jsonSchema: the site's adaptive schema cannot check claims; set it again within its bounds",
      );
    return entry.validate;
  }

  private compile(schema: object): ValidateFunction | null {
    try {
      return this.ajv.compile(schema);
    } catch {
      return null;
    }
  }
}

/**
 * Levels a claim's value may nest: object claims within ADAPTIVE_SCHEMA_BOUNDS.depth, an array at the
 * deepest. Deeper cannot be valid, and structuredClone (recursive) overflowed the stack on 4,000 levels.
 */
const CLAIM_VALUE_DEPTH = ADAPTIVE_SCHEMA_BOUNDS.depth + 1;

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [at, depth] = stack.pop()!;
    if (!at || typeof at !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const item of Object.values(at)) stack.push([item, depth + 1]);
  }
  return deepest;
}

const signed = new Validators(new Ajv({ strict: true, removeAdditional: true }));
const unsigned = new Validators(new Ajv({ strict: true, coerceTypes: 'array' }));

/** The token's claims that the schema declares outside `unsigned`, each of its declared type. */
export function signedClaims(schema: AdaptiveSchema | null, payload: Record<string, unknown>): VisitorClaims {
  if (!schema) return {};
  const { unsigned: _unsigned, ...declared } = schema.properties;
  // undeclared claims are dropped unread (ajv's removeAdditional would drop them after the clone)
  const kept = Object.fromEntries(
    Object.keys(declared)
      .filter((name) => Object.hasOwn(payload, name))
      .map((name) => [name, payload[name]]),
  );
  for (const [name, value] of Object.entries(kept))
    if (depthOf(value) > CLAIM_VALUE_DEPTH)
      throw badRequest(`visitorAuthToken/${name}: must not nest more than ${CLAIM_VALUE_DEPTH} levels`);
  const claims = structuredClone(kept);
  const validate = signed.of({ type: 'object', properties: declared, additionalProperties: false });
  if (!validate(claims))
    throw badRequest(describeAjvError(firstAjvError(validate.errors!), (pointer) => `visitorAuthToken${pointer}`));
  return claims;
}

const PREFIX = 'visitor.';

/** `visitor.<path>` query parameters as one object (null-prototype, so any name is a plain key). */
function claimsFromQuery(query: Record<string, unknown>): Record<string, unknown> | null {
  let claims: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith(PREFIX)) continue;
    claims ??= Object.create(null) as Record<string, unknown>;
    const names = key.slice(PREFIX.length).split('.');
    // the unsigned group's claims nest as deep as object claims may; the name stops there, unread
    if (names.length > ADAPTIVE_SCHEMA_BOUNDS.depth)
      throw badRequest(
        `${PREFIX}${names.slice(0, ADAPTIVE_SCHEMA_BOUNDS.depth + 1).join('.')}…: must not nest more than ${ADAPTIVE_SCHEMA_BOUNDS.depth} levels`,
      );
    let at = claims;
    names.forEach((name, i) => {
      const here = names.slice(0, i + 1).join('.');
      if (i === names.length - 1) {
        if (name in at) throw badRequest(`${PREFIX}${here}: is given both as a value and as an object`);
        at[name] = value;
      } else {
        at[name] ??= Object.create(null);
        const next = at[name];
        if (typeof next !== 'object' || Array.isArray(next))
          throw badRequest(`${PREFIX}${here}: is given both as a value and as an object`);
        at = next as Record<string, unknown>;
      }
    });
  }
  return claims;
}

/** The unsigned claims of the `visitor.<name>` parameters, each declared in the schema's `unsigned` group. */
export function unsignedClaims(schema: AdaptiveSchema | null, query: Record<string, unknown>): VisitorClaims {
  const claims = claimsFromQuery(query);
  if (!claims) return {};
  const group = schema?.properties.unsigned;
  const validate = unsigned.of({ type: 'object', properties: group?.properties ?? {}, additionalProperties: false });
  if (!validate(claims))
    throw badRequest(
      describeAjvError(firstAjvError(validate.errors!), (pointer) => PREFIX + pointer.slice(1).split('/').join('.')),
    );
  return { ...claims };
}

/** `visitor.claims` as conditions read it. */
export function visitorClaims(signedPart: VisitorClaims, unsignedPart: VisitorClaims): VisitorClaims {
  return { ...signedPart, unsigned: unsignedPart };
}
