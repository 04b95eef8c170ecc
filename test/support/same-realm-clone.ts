/**
 * Jest runs each test file in its own VM realm, but its global `structuredClone` is Node's, which
 * builds objects of the outer realm: `Object.getPrototypeOf(clone) === Object.prototype` is then
 * false, and @scalar/openapi-parser (which checks exactly that) takes every document for invalid.
 * Outside jest there is one realm. This clone copies what JSON-like documents hold, in this realm.
 */
function cloneInRealm<T>(value: T, seen = new Map<unknown, unknown>()): T {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(cloneInRealm(item, seen));
    return copy as T;
  }
  const copy: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = cloneInRealm(item, seen);
  return copy as T;
}

globalThis.structuredClone = ((value: unknown) => cloneInRealm(value)) as typeof structuredClone;
