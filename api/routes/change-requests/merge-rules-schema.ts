/**
 * `mergeRules` in the bodies of PATCH /orgs/{organizationId} and PATCH /spaces/{spaceId}: GitBook 0.202's forms,
 * checked strictly. `require_agent_review` is GitBook's and not built here (400); a custom rule's expression is
 * parsed as it is stored, so a stored one always parses. Whether named users are members: domain/merge-rules/.
 */
import { z } from 'zod';
import { AppError } from '../../../domain/errors';
import { EXPRESSION_MAX, parseMergeExpression } from '../../../domain/merge-rules/expression';
import {
  MergeRule,
  MergeRulesConfiguration,
  PLAIN_MERGE_RULES,
  SpaceMergeRulesConfiguration,
  USER_MERGE_RULES,
} from '../../../entities/merge-rules';
import { resourceId, text } from '../../schemas';

const UNSUPPORTED = 'require_agent_review';
export const RULES_MAX = 50;
export const RULE_USERS_MAX = 100;

const rule = z
  .discriminatedUnion(
    'rule',
    [
      z
        .object({
          rule: z.enum([...PLAIN_MERGE_RULES, UNSUPPORTED]).openapi({
            description: `a rule without parameters (\`${UNSUPPORTED}\` is refused: not supported here)`,
          }),
        })
        .strict(),
      z
        .object({
          rule: z.enum(USER_MERGE_RULES).openapi({ description: 'a rule about the reviews of the listed users' }),
          users: z
            .array(resourceId)
            .min(1)
            .max(RULE_USERS_MAX)
            .openapi({ description: `ids of members of the organization, 1 to ${RULE_USERS_MAX}` }),
        })
        .strict(),
      z
        .object({
          rule: z.literal('custom').openapi({ description: 'an expression that must hold' }),
          expression: text({ min: 1, max: EXPRESSION_MAX }).openapi({
            description:
              'over `space`, `changeRequest`, `reviews` and `actor`, in the language of site conditions: values read by name, literals, `!`, `==`, `===`, `!=`, `!==`, `&&`, `||`',
          }),
          message: text({ min: 1, max: 500 })
            .optional()
            .openapi({ description: 'what a refused merge says when the expression does not hold' }),
        })
        .strict(),
    ],
    {
      errorMap: (issue, ctx) => ({
        message:
          issue.code === 'invalid_union_discriminator'
            ? `must be one of ${[...PLAIN_MERGE_RULES, ...USER_MERGE_RULES, 'custom'].join(', ')}`
            : ctx.defaultError,
      }),
    },
  )
  .superRefine((r, ctx) => {
    if (r.rule === UNSUPPORTED)
      ctx.addIssue({ code: 'custom', path: ['rule'], message: `${UNSUPPORTED} is not supported here` });
    if (r.rule !== 'custom') return;
    try {
      parseMergeExpression(r.expression);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.addIssue({ code: 'custom', path: ['expression'], message: error.message.replace(/^expression: /, '') });
    }
  })
  // the refinement leaves only GitBook's rules that are built here
  .transform((r) => r as MergeRule);

const rules = z
  .object({
    type: z.literal('rules').openapi({ description: 'every rule must pass before a merge' }),
    rules: z
      .array(rule)
      .max(RULES_MAX)
      .openapi({ description: `at most ${RULES_MAX} rules` }),
  })
  .strict();
const none = z.object({ type: z.literal('none').openapi({ description: 'no rule: merges need no review' }) }).strict();
const inherit = z
  .object({ type: z.literal('inherit').openapi({ description: "the organization's rules apply" }) })
  .strict();

const typeError = (types: string) => ({
  errorMap: (issue: z.ZodIssueOptionalMessage, ctx: z.ErrorMapCtx) => ({
    message: issue.code === 'invalid_union_discriminator' ? `must be one of ${types}` : ctx.defaultError,
  }),
});

/** An organization's default rules. */
export const organizationMergeRulesBody = z
  .discriminatedUnion('type', [rules, none], typeError('rules, none'))
  .transform((c) => c as MergeRulesConfiguration)
  .openapi({ description: "GitBook 0.202: the rules of the organization's spaces that inherit them, or none" });

/** A space's own rules, or its organization's. */
export const spaceMergeRulesBody = z
  .discriminatedUnion('type', [inherit, rules, none], typeError('inherit, rules, none'))
  .transform((c) => c as SpaceMergeRulesConfiguration)
  .openapi({ description: "GitBook 0.202: the space's own merge rules, or its organization's (`inherit`)" });
