/**
 * GitBook's optional fields on the wire: left out when they have no value, never sent as null (strict clients of
 * GitBook's document refuse a null there). For the objects built in domain/ that reach clients without the API's
 * serialization step (api/presenters/wire.ts), such as an integration's environment.
 */
type Present<T> = { [K in keyof T]?: Exclude<T[K], null> };

/** The fields of `fields` that have a value (neither null nor undefined). */
export function present<T extends Record<string, unknown>>(fields: T): Present<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined) out[key] = value;
  return out as Present<T>;
}
