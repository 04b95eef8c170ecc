/**
 * The condition language of sections and site spaces: GitBook's JavaScript-like expressions over the
 * visitor's claims (`visitor.claims.isBetaUser`, `visitor.claims.plan === "pro" && !visitor.claims.unsigned.trial`).
 * jsep parses the text; this file admits the subset a visibility decision needs (claims, literals,
 * `!`, `==`/`===`/`!=`/`!==`, `&&`, `||`) and turns it into a small tree the rest of the code reads.
 */
import jsep from 'jsep';
import { badRequest } from '../../errors';

export type Condition =
  | { kind: 'literal'; value: boolean | string | number | null }
  /** a claim by its path after `visitor.claims.` */
  | { kind: 'claim'; path: string }
  | { kind: 'not'; operand: Condition }
  | { kind: 'equals'; negated: boolean; left: Condition; right: Condition }
  | { kind: 'logical'; operator: '&&' | '||'; left: Condition; right: Condition };

const EQUALITY: Record<string, boolean> = { '==': false, '===': false, '!=': true, '!==': true };

const refuse = (rule: string) => badRequest(`condition: ${rule}`);

/** `visitor.claims.a.b` (or `visitor.claims["a"].b`) as the path `a.b`. */
function claimPath(node: jsep.Expression): string {
  const names: string[] = [];
  let at: jsep.Expression = node;
  while (at.type === 'MemberExpression') {
    const member = at as jsep.MemberExpression;
    const property = member.property;
    if (!member.computed && property.type === 'Identifier') names.unshift((property as jsep.Identifier).name);
    else if (member.computed && property.type === 'Literal' && typeof (property as jsep.Literal).value === 'string')
      names.unshift((property as jsep.Literal).value as string);
    else throw refuse('a claim is read by name, as visitor.claims.<name>');
    at = member.object;
  }
  const root = at.type === 'Identifier' ? (at as jsep.Identifier).name : null;
  if (root !== 'visitor' || names[0] !== 'claims')
    throw refuse(`${root ?? 'this value'} is unknown: conditions read visitor.claims.<name>`);
  if (names.length === 1) throw refuse('visitor.claims holds every claim: name one, as visitor.claims.<name>');
  return names.slice(1).join('.');
}

function convert(node: jsep.Expression): Condition {
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value instanceof RegExp) throw refuse('regular expressions are not supported');
      return { kind: 'literal', value: value as boolean | string | number | null };
    }
    case 'Identifier':
    case 'MemberExpression':
      return { kind: 'claim', path: claimPath(node) };
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator !== '!')
        throw refuse(`the operator ${unary.operator} is not supported (use !, ==, ===, !=, !==, && and ||)`);
      return { kind: 'not', operand: convert(unary.argument) };
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      const left = convert(binary.left);
      const right = convert(binary.right);
      if (binary.operator === '&&' || binary.operator === '||')
        return { kind: 'logical', operator: binary.operator, left, right };
      if (binary.operator in EQUALITY) return { kind: 'equals', negated: EQUALITY[binary.operator], left, right };
      throw refuse(`the operator ${binary.operator} is not supported (use !, ==, ===, !=, !==, && and ||)`);
    }
    default:
      throw refuse(
        `${node.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}s are not supported (use claims, literals, !, ==, ===, !=, !==, && and ||)`,
      );
  }
}

/** The condition's tree, or a 400 naming what does not parse or is outside the language. */
export function parseCondition(expression: string): Condition {
  let tree: jsep.Expression;
  try {
    tree = jsep(expression);
  } catch (error) {
    throw refuse(`does not parse: ${(error as Error).message}`);
  }
  if (tree.type === 'Compound') throw refuse('must be a single expression');
  return convert(tree);
}

/** Every claim path the condition reads, in order of appearance. */
export function claimsReadBy(condition: Condition): string[] {
  switch (condition.kind) {
    case 'literal':
      return [];
    case 'claim':
      return [condition.path];
    case 'not':
      return claimsReadBy(condition.operand);
    case 'equals':
    case 'logical':
      return [...claimsReadBy(condition.left), ...claimsReadBy(condition.right)];
  }
}
