/**
 * GitBook 0.202's merge rules as they are stored on an organization (its default) and on a space: the shapes of
 * `MergeRulesStandaloneConfiguration` and `MergeRulesSpaceConfiguration`. Checked on the way in
 * (domain/merge-rules/configuration.ts), so a stored value is always one of these.
 */

/** Rules that need no argument. */
export const PLAIN_MERGE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
] as const;

/** Rules that name users. */
export const USER_MERGE_RULES = [
  'require_specific_reviewers',
  'require_one_of_specific_reviewers',
  'allow_bypass',
] as const;

export type MergeRule =
  | { rule: (typeof PLAIN_MERGE_RULES)[number] }
  | { rule: (typeof USER_MERGE_RULES)[number]; users: string[] }
  | { rule: 'custom'; expression: string; message?: string };

export type MergeRulesConfiguration = { type: 'rules'; rules: MergeRule[] } | { type: 'none' };

export type SpaceMergeRulesConfiguration = MergeRulesConfiguration | { type: 'inherit' };
