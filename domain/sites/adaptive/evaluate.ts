/**
 * Decides a condition for one visitor. Equality is strict for `==` as for `===` (claims are booleans and
 * enum strings, so JavaScript's loose coercions would only surprise) except that a missing claim equals
 * null; a claim the visitor does not
 * carry reads as undefined, so `visitor.claims.isBetaUser` hides the item from a visitor without it.
 */
import { Condition, parseCondition } from './condition-expression';

export type VisitorClaims = Record<string, unknown>;

function claimValue(claims: VisitorClaims, path: string): unknown {
  let value: unknown = claims;
  for (const name of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

function claimValueOf(condition: Condition, claims: VisitorClaims): unknown {
  switch (condition.kind) {
    case 'literal':
      return condition.value;
    case 'claim':
      return claimValue(claims, condition.path);
    case 'not':
      return !claimValueOf(condition.operand, claims);
    case 'equals':
      // a missing claim equals null, as with JavaScript's ==
      return (
        ((claimValueOf(condition.left, claims) ?? null) === (claimValueOf(condition.right, claims) ?? null)) !==
        condition.negated
      );
    case 'logical': {
      const left = !!claimValueOf(condition.left, claims);
      return condition.operator === '&&'
        ? left && !!claimValueOf(condition.right, claims)
        : left || !!claimValueOf(condition.right, claims);
    }
  }
}

/** Whether the condition holds over these values (a merge rule's reads them by their paths from its scope's roots). */
export function conditionHolds(condition: Condition, values: Record<string, unknown>): boolean {
  return !!claimValueOf(condition, values);
}

/** Whether a visitor with these claims sees an item with this condition (none: everyone does). */
export function visitorSees(condition: string | null, claims: VisitorClaims): boolean {
  return condition === null || conditionHolds(parseCondition(condition), claims);
}
