/**
 * Where merge rules are stored and which apply: a space's own (`{type: rules}` or `{type: none}`), or, when it
 * inherits (null or `{type: inherit}`), its organization's default, which is `{type: none}` until one is set.
 */
import type { MergeRule, MergeRulesConfiguration, SpaceMergeRulesConfiguration } from '../../entities/merge-rules';
import { Organization } from '../../entities/Organization';
import type { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { badRequest } from '../errors';
import { membersAmong } from '../members/members';

export const NO_MERGE_RULES: MergeRulesConfiguration = { type: 'none' };
export const INHERITED_MERGE_RULES: SpaceMergeRulesConfiguration = { type: 'inherit' };

/** The users a rule names, none for a rule that names none. */
export function usersNamedBy(rule: MergeRule): string[] {
  return 'users' in rule ? rule.users : [];
}

/** Who among `userIds` belongs to the organization today (a disabled member does not). */
export async function enabledMemberIds(db: Db, organizationId: string, userIds: string[]): Promise<Set<string>> {
  return new Set((await membersAmong(db, organizationId, userIds)).filter((m) => !m.disabled).map((m) => m.userId));
}

/**
 * 400 `<field>.rules.<i>.users: …` for a rule naming a user who is not a member of the organization, so a stored
 * rule names only people who were members; one who leaves later leaves the rule unmet (evaluation.ts).
 */
export async function checkMergeRules(
  db: Db,
  organizationId: string,
  configuration: SpaceMergeRulesConfiguration,
  field: string,
): Promise<void> {
  if (configuration.type !== 'rules') return;
  const named = configuration.rules.flatMap(usersNamedBy);
  const members = await enabledMemberIds(db, organizationId, [...new Set(named)]);
  configuration.rules.forEach((rule, i) => {
    const stranger = usersNamedBy(rule).find((id) => !members.has(id));
    if (stranger !== undefined)
      throw badRequest(`${field}.rules.${i}.users: "${stranger}" is not a member of this organization`);
  });
}

/** The rules that apply to the space's change requests: its own, or its organization's. */
export async function effectiveMergeRules(db: Db, space: Space): Promise<MergeRule[]> {
  let configuration = space.mergeRules ?? INHERITED_MERGE_RULES;
  if (configuration.type === 'inherit') {
    const org = await db.findOneByOrFail(Organization, { id: space.organizationId });
    configuration = org.mergeRules ?? NO_MERGE_RULES;
  }
  return configuration.type === 'rules' ? configuration.rules : [];
}
