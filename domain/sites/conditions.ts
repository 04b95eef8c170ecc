/**
 * Conditions of sections and site spaces: expressions over the visitor's claims
 * (`visitor.claims.isBetaUser`, `visitor.claims.plan == "pro"`), checked against the site's adaptive
 * schema when they are set, and again when the schema changes (domain/sites/adaptive/schema-update.ts).
 * A claim the schema does not declare is accepted: a visitor never carries it (undeclared claims are dropped),
 * so it reads as absent, which is false, as on GitBook, whose client sends such conditions. Only a claim the
 * schema declares with a type conditions cannot test, or compared with a value it cannot hold, is refused.
 */
import { badRequest } from '../errors';
import { Attributes, attributesOf, isConditionable } from './adaptive/attributes';
import { Condition, parseCondition } from './adaptive/condition-expression';
import type { AdaptiveSchema } from './adaptive/json-schema';

/** The literal a condition compares a claim with, when it does. */
function literalAgainst(condition: Extract<Condition, { kind: 'equals' }>): { path: string; value: unknown } | null {
  const { left, right } = condition;
  if (left.kind === 'claim' && right.kind === 'literal') return { path: left.path, value: right.value };
  if (right.kind === 'claim' && left.kind === 'literal') return { path: right.path, value: left.value };
  return null;
}

/** Why the condition cannot be used with these attributes: one sentence per problem, none when it can. */
function problemsIn(condition: Condition, attributes: Attributes): string[] {
  switch (condition.kind) {
    case 'literal':
      return [];
    case 'claim': {
      const claim = attributes.get(condition.path);
      const name = `visitor.claims.${condition.path}`;
      if (!claim) return [];
      if (!isConditionable(claim))
        return [
          `${name} is ${claim.type === 'array' || claim.type === 'object' ? 'an' : 'a'} ${claim.type}${claim.type === 'string' ? ' without an enum' : ''}: conditions test boolean claims and string claims with an enum`,
        ];
      return [];
    }
    case 'not':
      return problemsIn(condition.operand, attributes);
    case 'logical':
      return [...problemsIn(condition.left, attributes), ...problemsIn(condition.right, attributes)];
    case 'equals': {
      const problems = [...problemsIn(condition.left, attributes), ...problemsIn(condition.right, attributes)];
      const compared = literalAgainst(condition);
      const claim = compared && attributes.get(compared.path);
      if (problems.length || !compared || !claim || compared.value === null) return problems;
      const name = `visitor.claims.${compared.path}`;
      if (claim.type === 'boolean' && typeof compared.value !== 'boolean')
        return [`${name} is a boolean: compare it with true or false`];
      if (claim.type === 'string' && claim.enum && !claim.enum.includes(compared.value as string)) {
        return [
          `${JSON.stringify(compared.value)} is not a value of ${name} (${claim.enum.map((v) => JSON.stringify(v)).join(', ')})`,
        ];
      }
      return [];
    }
  }
}

/** What keeps the expression from being a condition of a site with this schema: empty when nothing does. */
export function conditionProblems(schema: AdaptiveSchema | null, expression: string): string[] {
  return problemsIn(parseCondition(expression), attributesOf(schema));
}

/** A 400 "condition: …" for an expression that does not parse, or that reads a declared claim conditions cannot test. */
export function checkCondition(schema: Record<string, unknown> | null, expression: string): void {
  const [problem] = conditionProblems(schema as AdaptiveSchema | null, expression);
  if (problem) throw badRequest(`condition: ${problem}`);
}
