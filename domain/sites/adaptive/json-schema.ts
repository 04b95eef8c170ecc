/**
 * The rules of a site's adaptive schema (GitBook's `SiteAdaptiveJSONSchema`): a draft-07
 * object schema without additional properties whose claims are booleans, strings with or without an
 * enum, numbers, arrays of those, or nested objects of claims, plus the optional `unsigned` group.
 * Checked by ajv against a meta-schema that spells those rules out; the first violation is a 400
 * naming its JSON pointer inside `jsonSchema`.
 */
import Ajv, { ErrorObject } from 'ajv';
import { badRequest } from '../../errors';

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

/** A claim of the schema, as the meta-schema admits it. */
export type ClaimSchema =
  | { type: 'boolean'; description: string }
  | { type: 'string'; description: string; enum?: string[] }
  | { type: 'number'; description: string }
  | { type: 'array'; description: string; items: ClaimSchema }
  | { type: 'object'; description: string; properties: Record<string, ClaimSchema>; additionalProperties: false };

export interface AdaptiveSchema {
  $schema?: typeof DRAFT_07;
  type: 'object';
  properties: Record<string, ClaimSchema> & {
    unsigned?: {
      type: 'object';
      description: string;
      properties: Record<string, ClaimSchema>;
      additionalProperties: false;
    };
  };
  additionalProperties: false;
}

/** Claim names are read in conditions as `visitor.claims.<name>`, so they are JavaScript identifiers. */
export const CLAIM_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/;

const exact = (properties: Record<string, unknown>, required: string[] = []) => ({
  properties: { type: {}, description: {}, ...properties },
  required: ['type', 'description', ...required],
  additionalProperties: false,
});
const typeIs = (type: string) => ({ properties: { type: { const: type } } });
const claimsObject = {
  type: 'object',
  propertyNames: { pattern: CLAIM_NAME.source },
  additionalProperties: { $ref: '#/definitions/claim' },
};

/** The forms of a claim; an array's items are the primitive forms only. */
function claimForms(primitiveOnly: boolean) {
  const forms = [
    { if: typeIs('boolean'), then: exact({}) },
    {
      if: typeIs('string'),
      then: exact({ enum: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true } }),
    },
    { if: typeIs('number'), then: exact({}) },
  ];
  if (!primitiveOnly) {
    forms.push(
      { if: typeIs('array'), then: exact({ items: { $ref: '#/definitions/primitive' } }, ['items']) },
      {
        if: typeIs('object'),
        then: exact({ properties: claimsObject, additionalProperties: { const: false } }, [
          'properties',
          'additionalProperties',
        ]),
      },
    );
  }
  const types = primitiveOnly ? ['boolean', 'string', 'number'] : ['boolean', 'string', 'number', 'array', 'object'];
  return {
    type: 'object',
    description: primitiveOnly
      ? 'one item of an array claim: a boolean, a string (with its allowed values) or a number'
      : 'one claim a visitor token may carry, read in conditions as `visitor.claims.<name>`',
    required: ['type', 'description'],
    properties: {
      type: { enum: types, description: "the claim's JSON type" },
      description: { type: 'string', description: 'what the claim means, for whoever writes conditions with it' },
    },
    allOf: forms,
  };
}

const META_SCHEMA = {
  definitions: { claim: claimForms(false), primitive: claimForms(true) },
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { const: DRAFT_07 },
    type: { const: 'object' },
    properties: {
      ...claimsObject,
      properties: {
        unsigned: {
          type: 'object',
          required: ['type', 'description', 'properties', 'additionalProperties'],
          properties: {
            type: { const: 'object' },
            description: { const: UNSIGNED_DESCRIPTION },
            properties: claimsObject,
            additionalProperties: { const: false },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: { const: false },
  },
  additionalProperties: false,
};

/**
 * The rules as an API document states them (the request body of updateSiteAdaptiveSchema): the meta-schema with its
 * definitions as named components (`component(name)` is the reference to one), so a client reads the same rules the
 * validation applies.
 */
export function adaptiveSchemaDocument(component: (definition: string) => string): {
  schema: Record<string, unknown>;
  definitions: Record<string, Record<string, unknown>>;
} {
  const { definitions, ...schema } = JSON.parse(
    JSON.stringify(META_SCHEMA).replace(/"#\/definitions\/(\w+)"/g, (_m, name: string) =>
      JSON.stringify(component(name)),
    ),
  ) as Record<string, unknown> & { definitions: Record<string, Record<string, unknown>> };
  return { schema, definitions };
}

const validateMeta = new Ajv({ allErrors: false, strict: true, allowMatchingProperties: true }).compile<AdaptiveSchema>(
  META_SCHEMA,
);

/**
 * One ajv error as "<field>: <rule>", the field naming the offending member itself where ajv knows it;
 * `field` turns a JSON pointer into the name the caller sent it under.
 */
export function describeAjvError(error: ErrorObject, field: (pointer: string) => string): string {
  const p = error.params as Record<string, unknown>;
  const at = field(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return `${field(`${error.instancePath}/${String(p.missingProperty)}`)}: is required`;
    case 'additionalProperties':
      return `${field(`${error.instancePath}/${String(p.additionalProperty)}`)}: is not allowed here`;
    case 'propertyNames':
      return `${field(`${error.instancePath}/${String(p.propertyName)}`)}: a claim name must be a JavaScript identifier of at most 100 characters (conditions read visitor.claims.<name>)`;
    case 'const':
      return `${at}: must be ${JSON.stringify(p.allowedValue)}`;
    case 'enum':
      return `${at}: must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'type':
      return `${at}: must be ${String(p.type)}`;
    case 'minItems':
      return `${at}: must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return `${at}: must not repeat a value`;
    default:
      return `${at}: ${error.message ?? 'is invalid'}`;
  }
}

/** The most telling of ajv's errors: a bad claim name comes as its pattern error, then the
 * propertyNames error that names it; a failing `then` as the violation inside it, then the `if` around it. */
export function firstAjvError(errors: ErrorObject[]): ErrorObject {
  return errors.find((e) => e.keyword === 'propertyNames') ?? errors.find((e) => e.keyword !== 'if') ?? errors[0];
}

/**
 * Bounds of a schema. ajv compiles it into code for the visitors' claims (and keeps the 100 most
 * recent per kind): 2,000 claims overflowed the stack while compiling, an enum of 50,000 values took 37 s, and
 * the cache is keyed by the schema's text.
 */
export const ADAPTIVE_SCHEMA_BOUNDS = {
  /** the schema serialized as JSON */
  bytes: 64 * 1024,
  /** claims at every level, both groups */
  claims: 100,
  /** object claims inside object claims: `visitor.claims.a.b.c.d.e` */
  depth: 5,
  /** the values of every enum together */
  enumValues: 1000,
} as const;

/** Refuses a schema past its bounds, with the JSON pointer of the claim that passes the depth. */
function checkBounds(schema: AdaptiveSchema): void {
  const bounds = ADAPTIVE_SCHEMA_BOUNDS;
  if (Buffer.byteLength(JSON.stringify(schema)) > bounds.bytes)
    throw badRequest(`jsonSchema: must be at most ${bounds.bytes} bytes as JSON`);
  let claims = 0;
  let enumValues = 0;
  const { unsigned, ...signed } = schema.properties;
  const stack: Array<{ properties: Record<string, ClaimSchema>; pointer: string; depth: number }> = [
    { properties: signed, pointer: '/properties', depth: 1 },
    ...(unsigned ? [{ properties: unsigned.properties, pointer: '/properties/unsigned/properties', depth: 1 }] : []),
  ];
  while (stack.length) {
    const { properties, pointer, depth } = stack.pop()!;
    for (const [name, claim] of Object.entries(properties)) {
      const at = `${pointer}/${name}`;
      if (++claims > bounds.claims) throw badRequest(`jsonSchema: must not declare more than ${bounds.claims} claims`);
      if (depth > bounds.depth)
        throw badRequest(`jsonSchema${at}: claims must not nest more than ${bounds.depth} levels deep`);
      const values =
        claim.type === 'string'
          ? claim.enum
          : claim.type === 'array' && claim.items.type === 'string'
            ? claim.items.enum
            : undefined;
      enumValues += values?.length ?? 0;
      if (enumValues > bounds.enumValues)
        throw badRequest(`jsonSchema: must not list more than ${bounds.enumValues} enum values in all`);
      if (claim.type === 'object')
        stack.push({ properties: claim.properties, pointer: `${at}/properties`, depth: depth + 1 });
    }
  }
}

/** The schema when it follows the rules and its bounds; otherwise a 400 naming the first violation's JSON pointer. */
export function parseAdaptiveSchema(value: unknown): AdaptiveSchema {
  if (!validateMeta(value))
    throw badRequest(describeAjvError(firstAjvError(validateMeta.errors!), (pointer) => `jsonSchema${pointer}`));
  checkBounds(value);
  return value;
}
