/**
 * The attributes of an adaptive schema: every claim, nested ones and the `unsigned` group included,
 * by the path a condition reads after `visitor.claims.` (`isBetaUser`, `org.plan`, `unsigned.language`).
 */
import type { AdaptiveSchema, ClaimSchema } from './json-schema';

/** Keyed by the dotted path (claim names are identifiers, so the dots are unambiguous); schema order. */
export type Attributes = Map<string, ClaimSchema>;

/** Conditions can decide on a boolean claim or a string claim with an enum: their values are known. */
export function isConditionable(
  claim: ClaimSchema,
): claim is Extract<ClaimSchema, { type: 'boolean' }> | { type: 'string'; description: string; enum: string[] } {
  return claim.type === 'boolean' || (claim.type === 'string' && !!claim.enum);
}

export function attributesOf(schema: AdaptiveSchema | null): Attributes {
  const attributes: Attributes = new Map();
  const walk = (properties: Record<string, ClaimSchema>, prefix: string) => {
    for (const [name, claim] of Object.entries(properties)) {
      const path = prefix + name;
      attributes.set(path, claim);
      if (claim.type === 'object') walk(claim.properties, `${path}.`);
    }
  };
  if (schema) walk(schema.properties as Record<string, ClaimSchema>, '');
  return attributes;
}
