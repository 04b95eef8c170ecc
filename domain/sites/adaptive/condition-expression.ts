/**
 * The condition language of sections and site spaces: GitBook's JavaScript-like expressions over the
 * visitor's claims (`visitor.claims.isBetaUser`, `visitor.claims.plan === "pro" && !visitor.claims.unsigned.trial`).
 * jsep parses the text; this file admits the subset a visibility decision needs (claims, literals,
 * `!`, `==`/`===`/`!=`/`!==`, `&&`, `||`) and turns it into a small tree the rest of the code reads.
 * The custom merge rules (domain/merge-rules/) use the same language over other values: a scope says which
 * paths an expression may read and which field its 400s name.
 */
import jsep from 'jsep';
import { AppError, badRequest } from '../../errors';

export type Condition =
  | { kind: 'literal'; value: boolean | string | number | null }
  /** a claim by its path after `visitor.claims.` */
  | { kind: 'claim'; path: string }
  | { kind: 'not'; operand: Condition }
  | { kind: 'equals'; negated: boolean; left: Condition; right: Condition }
  | { kind: 'logical'; operator: '&&' | '||'; left: Condition; right: Condition };

const EQUALITY: Record<string, boolean> = { '==': false, '===': false, '!=': true, '!==': true };

type Refuse = (rule: string) => AppError;

/** What an expression may read, and the field its 400s name. */
export interface ExpressionScope {
  field: string;
  /** the rule broken by a member read by anything but a name (`a[0]`, `a[b]`) */
  byName: string;
  /** The path a member expression reads (`root` is null when it does not start with a name); refuses the others. */
  path(root: string | null, names: string[], refuse: Refuse): string;
}

/** Site conditions: `visitor.claims.a.b` (or `visitor.claims["a"].b`) as the path `a.b`. */
const VISITOR_CLAIMS: ExpressionScope = {
  field: 'condition',
  byName: 'a claim is read by name, as visitor.claims.<name>',
  path(root, names, refuse) {
    if (root !== 'visitor' || names[0] !== 'claims')
      throw refuse(`${root ?? 'this value'} is unknown: conditions read visitor.claims.<name>`);
    if (names.length === 1) throw refuse('visitor.claims holds every claim: name one, as visitor.claims.<name>');
    return names.slice(1).join('.');
  },
};

function memberPath(node: jsep.Expression, scope: ExpressionScope, refuse: Refuse): string {
  const names: string[] = [];
  let at: jsep.Expression = node;
  while (at.type === 'MemberExpression') {
    const member = at as jsep.MemberExpression;
    const property = member.property;
    if (!member.computed && property.type === 'Identifier') names.unshift((property as jsep.Identifier).name);
    else if (member.computed && property.type === 'Literal' && typeof (property as jsep.Literal).value === 'string')
      names.unshift((property as jsep.Literal).value as string);
    else throw refuse(scope.byName);
    at = member.object;
  }
  return scope.path(at.type === 'Identifier' ? (at as jsep.Identifier).name : null, names, refuse);
}

function convert(node: jsep.Expression, scope: ExpressionScope, refuse: Refuse): Condition {
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value instanceof RegExp) throw refuse('regular expressions are not supported');
      return { kind: 'literal', value: value as boolean | string | number | null };
    }
    case 'Identifier':
    case 'MemberExpression':
      return { kind: 'claim', path: memberPath(node, scope, refuse) };
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator !== '!')
        throw refuse(`the operator ${unary.operator} is not supported (use !, ==, ===, !=, !==, && and ||)`);
      return { kind: 'not', operand: convert(unary.argument, scope, refuse) };
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      const left = convert(binary.left, scope, refuse);
      const right = convert(binary.right, scope, refuse);
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
export function parseCondition(expression: string, scope: ExpressionScope = VISITOR_CLAIMS): Condition {
  const refuse: Refuse = (rule) => badRequest(`${scope.field}: ${rule}`);
  let tree: jsep.Expression;
  try {
    tree = jsep(expression);
  } catch (error) {
    throw refuse(`does not parse: ${(error as Error).message}`);
  }
  if (tree.type === 'Compound') throw refuse('must be a single expression');
  return convert(tree, scope, refuse);
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
