/**
 * The `custom` merge rule: an expression in the language of site conditions (same parser, same 1,024-character
 * bound, never `eval`) over GitBook's `MergeRulesEvaluationContext`: `space`, `changeRequest`, `reviews` and
 * `actor`, e.g. `changeRequest.subject != "WIP" && !changeRequest.outdated`.
 */
import { Condition, ExpressionScope, parseCondition } from '../sites/adaptive/condition-expression';
import { conditionHolds } from '../sites/adaptive/evaluate';

export const EXPRESSION_MAX = 1024;

const ROOTS = ['space', 'changeRequest', 'reviews', 'actor'];

const MERGE_CONTEXT: ExpressionScope = {
  field: 'expression',
  byName: 'a value is read by name, as changeRequest.subject',
  path(root, names, refuse) {
    if (root === null || !ROOTS.includes(root))
      throw refuse(`${root ?? 'this value'} is unknown: merge rules read ${ROOTS.join(', ')}`);
    return [root, ...names].join('.');
  },
};

/** The expression's tree, or a 400 `expression: …` naming what does not parse or is outside the language. */
export function parseMergeExpression(expression: string): Condition {
  return parseCondition(expression, MERGE_CONTEXT);
}

export interface MergeUser {
  id: string;
  displayName: string;
  email: string;
}

/** What an expression reads: GitBook's names, with the fields a rule can test. */
export interface MergeRulesContext {
  space: { id: string; title: string; visibility: string; organization: string; editMode: string; language: string };
  changeRequest: {
    id: string;
    number: number;
    status: string;
    subject: string;
    /** markdown; empty when there is none */
    description: string;
    outdated: boolean;
    revision: string;
    revisionInitial: string;
    createdBy: MergeUser;
  };
  reviews: Array<{ id: string; status: string; revision: string; outdated: boolean; reviewer: MergeUser }>;
  actor: MergeUser;
}

export function expressionHolds(expression: string, context: MergeRulesContext): boolean {
  return conditionHolds(parseMergeExpression(expression), context as unknown as Record<string, unknown>);
}
