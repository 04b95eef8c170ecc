/**
 * The one serialization step between a presenter and the wire. A presenter gives every field it knows, null where
 * there is no value; the operation's response schema then decides, field by field, what a client receives: a field
 * the schema marks optional and not nullable (GitBook's optional fields) is left out when it has no value, a
 * nullable one stays null. So the schema, which also writes /v1/openapi.json, is the only place that says
 * "omitted" or "null", and no presenter can disagree with it.
 */
import { ZodFirstPartyTypeKind, ZodTypeAny, z } from 'zod';

type Writer = (value: unknown) => unknown;

/**
 * What a presenter returns for schema `S`: the schema's type, where an optional field may also be null (its "no
 * value", which the serialization step leaves out).
 */
export type Presented<S extends ZodTypeAny> = Loose<z.input<S>>;
type Loose<T> = T extends readonly (infer U)[]
  ? Loose<U>[]
  : T extends Record<string, unknown>
    ? { [K in keyof T]: undefined extends T[K] ? Loose<Exclude<T[K], undefined>> | null | undefined : Loose<T[K]> }
    : T;

/** Schemas a `z.custom` placeholder stands for (a recursive reference the document writes as a `$ref`). */
const standsFor = new WeakMap<ZodTypeAny, () => ZodTypeAny>();

/** Marks `placeholder` as standing for the schema `target` returns, so the serialization step walks into it. */
export function standingFor<T extends ZodTypeAny>(placeholder: T, target: () => ZodTypeAny): T {
  standsFor.set(placeholder, target);
  return placeholder;
}

const writers = new WeakMap<ZodTypeAny, Writer>();

/** The value as it goes on the wire under `schema` (fields the schema does not know are kept as they are). */
export function toWire<S extends ZodTypeAny>(schema: S, value: Presented<S>): z.output<S> {
  return writerOf(schema)(value) as z.output<S>;
}

function writerOf(schema: ZodTypeAny): Writer {
  let writer = writers.get(schema);
  if (!writer) {
    let built: Writer = identity;
    writers.set(schema, (value) => built(value)); // a schema reached again while it is being built (recursion)
    built = build(schema);
    writer = built;
    writers.set(schema, built);
  }
  return writer;
}

const identity: Writer = (value) => value;

/** Whether a field's schema admits "no value" by omission (optional) or by null (nullable). */
function emptiness(schema: ZodTypeAny): { optional: boolean; nullable: boolean } {
  let optional = false;
  let nullable = false;
  let current: ZodTypeAny | undefined = schema;
  while (current) {
    const def = current._def as { typeName: ZodFirstPartyTypeKind; innerType?: ZodTypeAny; schema?: ZodTypeAny };
    switch (def.typeName) {
      case ZodFirstPartyTypeKind.ZodOptional:
      case ZodFirstPartyTypeKind.ZodDefault:
        optional = true;
        current = def.innerType;
        break;
      case ZodFirstPartyTypeKind.ZodNullable:
        nullable = true;
        current = def.innerType;
        break;
      case ZodFirstPartyTypeKind.ZodEffects:
        current = def.schema;
        break;
      case ZodFirstPartyTypeKind.ZodBranded:
      case ZodFirstPartyTypeKind.ZodReadonly:
        current = (def as { type?: ZodTypeAny }).type ?? def.innerType;
        break;
      case ZodFirstPartyTypeKind.ZodNull:
      case ZodFirstPartyTypeKind.ZodUnknown:
      case ZodFirstPartyTypeKind.ZodAny:
        nullable = true;
        current = undefined;
        break;
      case ZodFirstPartyTypeKind.ZodUnion:
        if ((current as z.ZodUnion<[ZodTypeAny, ...ZodTypeAny[]]>).options.some((o) => emptiness(o).nullable))
          nullable = true;
        current = undefined;
        break;
      default:
        current = undefined;
    }
  }
  return { optional, nullable };
}

function build(schema: ZodTypeAny): Writer {
  const target = standsFor.get(schema);
  if (target) return (value) => writerOf(target())(value);
  const def = schema._def as { typeName: ZodFirstPartyTypeKind } & Record<string, unknown>;
  switch (def.typeName) {
    case ZodFirstPartyTypeKind.ZodOptional:
    case ZodFirstPartyTypeKind.ZodNullable:
    case ZodFirstPartyTypeKind.ZodDefault:
    case ZodFirstPartyTypeKind.ZodReadonly:
      return writerOf(def.innerType as ZodTypeAny);
    case ZodFirstPartyTypeKind.ZodBranded:
      return writerOf(def.type as ZodTypeAny);
    case ZodFirstPartyTypeKind.ZodEffects:
      return writerOf(def.schema as ZodTypeAny);
    case ZodFirstPartyTypeKind.ZodLazy:
      return (value) => writerOf((def.getter as () => ZodTypeAny)())(value);
    case ZodFirstPartyTypeKind.ZodArray: {
      const item = writerOf(def.type as ZodTypeAny);
      if (item === identity) return identity;
      return (value) => (Array.isArray(value) ? value.map((v) => item(v)) : value);
    }
    case ZodFirstPartyTypeKind.ZodRecord: {
      const item = writerOf(def.valueType as ZodTypeAny);
      return (value) => (isObject(value) ? mapValues(value, item) : value);
    }
    case ZodFirstPartyTypeKind.ZodObject:
      return objectWriter((schema as z.AnyZodObject).shape);
    case ZodFirstPartyTypeKind.ZodUnion:
    case ZodFirstPartyTypeKind.ZodDiscriminatedUnion:
      return unionWriter([...(def.options as Iterable<ZodTypeAny>)]);
    default:
      return identity;
  }
}

function objectWriter(shape: Record<string, ZodTypeAny>): Writer {
  // a plain lookup and no writer call for a field written as it is: this runs for every object of every answer
  const fields: Record<string, { omitWhenEmpty: boolean; write: Writer | null }> = Object.create(null);
  for (const [key, field] of Object.entries(shape)) {
    const { optional, nullable } = emptiness(field);
    const write = writerOf(field);
    fields[key] = { omitWhenEmpty: optional && !nullable, write: write === identity ? null : write };
  }
  // nothing to leave out at any depth: the value goes as it is
  if (Object.values(fields).every((f) => !f.omitWhenEmpty && f.write === null)) return identity;
  return (value) => {
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const key in value) {
      const inner = value[key];
      if (inner === undefined) continue;
      const field = fields[key];
      if (field === undefined) out[key] = inner;
      else if (inner === null) {
        if (!field.omitWhenEmpty) out[key] = null;
      } else out[key] = field.write === null ? inner : field.write(inner);
    }
    return out;
  };
}

/** A union's value is written by the first option it fits (by its literal fields for objects). */
function unionWriter(options: ZodTypeAny[]): Writer {
  return (value) => {
    const option = options.find((o) => fits(o, value));
    return option ? writerOf(option)(value) : value;
  };
}

/** A shallow check: the value's type, and an object's literal fields (`object: 'site-section'`). */
function fits(schema: ZodTypeAny, value: unknown): boolean {
  const def = schema._def as { typeName: ZodFirstPartyTypeKind } & Record<string, unknown>;
  switch (def.typeName) {
    case ZodFirstPartyTypeKind.ZodOptional:
    case ZodFirstPartyTypeKind.ZodNullable:
      return value === null || value === undefined || fits(def.innerType as ZodTypeAny, value);
    case ZodFirstPartyTypeKind.ZodEffects:
      return fits(def.schema as ZodTypeAny, value);
    case ZodFirstPartyTypeKind.ZodObject:
      return (
        isObject(value) &&
        Object.entries((schema as z.AnyZodObject).shape as Record<string, ZodTypeAny>).every(
          ([key, field]) => !(field instanceof z.ZodLiteral) || field.value === value[key],
        )
      );
    case ZodFirstPartyTypeKind.ZodArray:
      return Array.isArray(value);
    case ZodFirstPartyTypeKind.ZodString:
    case ZodFirstPartyTypeKind.ZodEnum:
      return typeof value === 'string';
    case ZodFirstPartyTypeKind.ZodNumber:
      return typeof value === 'number';
    case ZodFirstPartyTypeKind.ZodBoolean:
      return typeof value === 'boolean';
    case ZodFirstPartyTypeKind.ZodNull:
      return value === null;
    case ZodFirstPartyTypeKind.ZodLiteral:
      return value === def.value;
    default:
      return true;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(value: Record<string, unknown>, write: Writer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = write(inner);
  return out;
}
