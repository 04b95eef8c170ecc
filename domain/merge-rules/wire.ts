/**
 * GitBook 0.202's merge rules on the wire, as organizations (`MergeRulesStandaloneConfiguration`) and spaces
 * (`MergeRulesSpaceConfiguration`) answer them: the schemas that document them in /v1/openapi.json. Request bodies
 * take the same forms, checked strictly (api/routes/change-requests/merge-rules-schema.ts).
 */
import { PLAIN_MERGE_RULES, USER_MERGE_RULES } from '../../entities/merge-rules';
import { z } from '../../platform/wire/zod';

const ruleDescriptions = {
  require_at_least_one_review: 'a review on the current revision',
  require_at_least_one_approved_review: 'an approval on the current revision',
  require_all_reviews_approved: 'no reviewer whose review on the current revision requests changes',
  require_up_to_date_change_request: 'the change request holds the space’s latest content (`outdated` false)',
  require_change_request_subject: 'a subject',
  require_change_request_description: 'a description',
  require_author_to_merge: 'the merge is made by the change request’s author',
  require_specific_reviewers: 'an approval on the current revision from each of these users',
  require_one_of_specific_reviewers: 'an approval on the current revision from one of these users',
  allow_bypass: 'these users may merge whatever the other rules say',
} as const;

const describe = (names: readonly (keyof typeof ruleDescriptions)[]) =>
  names.map((name) => `\`${name}\`: ${ruleDescriptions[name]}`).join('; ');

export const mergeRuleSchema = z
  .union([
    z.object({
      rule: z.enum(PLAIN_MERGE_RULES).openapi({ description: describe(PLAIN_MERGE_RULES) }),
    }),
    z.object({
      rule: z.enum(USER_MERGE_RULES).openapi({ description: describe(USER_MERGE_RULES) }),
      users: z.array(z.string()).openapi({
        description: 'ids of members of the organization; a user who has left it leaves the rule unmet',
      }),
    }),
    z.object({
      rule: z.literal('custom').openapi({ description: 'an expression that must hold' }),
      expression: z.string().openapi({
        description:
          'an expression over `space`, `changeRequest`, `reviews` and `actor` in the language of site conditions (at most 1,024 characters)',
      }),
      message: z.string().optional().openapi({ description: 'what the refused merge says when it does not hold' }),
    }),
  ])
  .openapi('MergeRule', { description: 'One rule a change request must meet before it is merged' });

export const mergeRulesConfigurationSchema = z
  .union([
    z.object({
      type: z.literal('rules').openapi({ description: 'every rule must pass' }),
      rules: z.array(mergeRuleSchema).openapi({ description: 'the rules, each of which must pass' }),
    }),
    z.object({ type: z.literal('none').openapi({ description: 'change requests merge without a rule' }) }),
  ])
  .openapi('MergeRulesStandaloneConfiguration', {
    description: 'GitBook 0.202: the rules a change request must meet before it is merged, or none',
  });

export const spaceMergeRulesConfigurationSchema = z
  .union([
    z.object({ type: z.literal('inherit').openapi({ description: "the organization's merge rules apply" }) }),
    mergeRulesConfigurationSchema,
  ])
  .openapi('MergeRulesSpaceConfiguration', {
    description: "GitBook 0.202: the space's own merge rules, or its organization's (`inherit`)",
  });
