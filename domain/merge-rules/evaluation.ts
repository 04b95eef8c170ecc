/**
 * Whether a change request may be merged under the rules that apply to its space (configuration.ts): each rule
 * that fails is named, and the merge is refused with a 409 naming them all, before anything is written.
 * Reviews count when they are their reviewer's latest and were made on the change request's head (domain/reviews/).
 * A rule naming a user who has left the organization is unmet: it is never dropped silently.
 */
import type { ChangeRequest } from '../../entities/ChangeRequest';
import { ChangeRequestReview } from '../../entities/ChangeRequestReview';
import type { MergeRule } from '../../entities/merge-rules';
import type { Space } from '../../entities/Space';
import type { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { usersById } from '../comments/details';
import { conflict } from '../errors';
import { countedReviews, supersededReviews } from '../reviews/reviews';
import { effectiveMergeRules, enabledMemberIds, usersNamedBy } from './configuration';
import { expressionHolds, MergeRulesContext, MergeUser } from './expression';

export interface MergeAttempt {
  space: Space;
  changeRequest: ChangeRequest;
  /** whether the space moved on since the change request last caught up (domain/content/change-requests.ts) */
  outdated: boolean;
  actorId: string;
}

export interface UnmetRule {
  rule: MergeRule['rule'];
  message: string;
}

const asMergeUser = (u: User): MergeUser => ({ id: u.id, displayName: u.displayName, email: u.email });

/** What the rules read, gathered once for every rule. */
async function gather(db: Db, attempt: MergeAttempt, rules: MergeRule[]) {
  const cr = attempt.changeRequest;
  const counted = await countedReviews(db, cr);
  const named = [...new Set(rules.flatMap(usersNamedBy))];
  const members = await enabledMemberIds(db, attempt.space.organizationId, named);
  const needsContext = rules.some((r) => r.rule === 'custom');
  const reviews = needsContext ? await db.find(ChangeRequestReview, { where: { changeRequestId: cr.id } }) : counted;
  const userIds = [...new Set([...named, ...reviews.map((r) => r.reviewerId), cr.createdById, attempt.actorId])];
  const users = await usersById(db, userIds);
  const context = needsContext ? await contextOf(db, attempt, reviews, users) : null;
  return { counted, members, users, context };
}

async function contextOf(
  db: Db,
  attempt: MergeAttempt,
  reviews: ChangeRequestReview[],
  users: Map<string, User>,
): Promise<MergeRulesContext> {
  const { space, changeRequest: cr } = attempt;
  const superseded = await supersededReviews(db, cr.id);
  return {
    space: {
      id: space.id,
      title: space.title,
      visibility: space.visibility,
      organization: space.organizationId,
      editMode: space.editMode,
      language: space.language,
    },
    changeRequest: {
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject,
      description: cr.description ?? '',
      outdated: attempt.outdated,
      revision: cr.revisionId,
      revisionInitial: cr.revisionInitialId,
      createdBy: asMergeUser(users.get(cr.createdById)!),
    },
    reviews: reviews.map((r) => ({
      id: r.id,
      status: r.status,
      revision: r.revisionId,
      outdated: superseded.has(r.id),
      reviewer: asMergeUser(users.get(r.reviewerId)!),
    })),
    actor: asMergeUser(users.get(attempt.actorId)!),
  };
}

/** The rules the change request does not meet, in the order they are listed; none when it may be merged. */
export async function unmetMergeRules(db: Db, attempt: MergeAttempt): Promise<UnmetRule[]> {
  const rules = await effectiveMergeRules(db, attempt.space);
  if (!rules.length) return [];
  const { counted, members, users, context } = await gather(db, attempt, rules);
  const cr = attempt.changeRequest;
  const name = (id: string) => (users.has(id) ? `${users.get(id)!.displayName} (${id})` : id);
  const approvers = new Set(counted.filter((r) => r.status === 'approved').map((r) => r.reviewerId));
  const bypass = rules.some(
    (r) => r.rule === 'allow_bypass' && r.users.includes(attempt.actorId) && members.has(attempt.actorId),
  );
  if (bypass) return [];

  const unmet: UnmetRule[] = [];
  const fail = (rule: MergeRule['rule'], message: string) => unmet.push({ rule, message: `${rule}: ${message}` });
  for (const rule of rules) {
    const departed = usersNamedBy(rule).filter((id) => !members.has(id));
    if (rule.rule !== 'allow_bypass' && departed.length) {
      fail(rule.rule, `${departed.map(name).join(', ')} no longer belong to the organization`);
      continue;
    }
    switch (rule.rule) {
      case 'allow_bypass':
        break;
      case 'require_at_least_one_review':
        if (!counted.length) fail(rule.rule, 'no review on the current revision');
        break;
      case 'require_at_least_one_approved_review':
        if (!approvers.size) fail(rule.rule, 'no approval on the current revision');
        break;
      case 'require_all_reviews_approved': {
        const blocking = counted.filter((r) => r.status === 'changes-requested').map((r) => r.reviewerId);
        if (blocking.length) fail(rule.rule, `${blocking.map(name).join(', ')} requested changes`);
        break;
      }
      case 'require_specific_reviewers': {
        const missing = rule.users.filter((id) => !approvers.has(id));
        if (missing.length) fail(rule.rule, `no approval on the current revision from ${missing.map(name).join(', ')}`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!rule.users.some((id) => approvers.has(id)))
          fail(rule.rule, `no approval on the current revision from any of ${rule.users.map(name).join(', ')}`);
        break;
      case 'require_up_to_date_change_request':
        if (attempt.outdated) fail(rule.rule, 'the change request is outdated: update it from the space first');
        break;
      case 'require_change_request_subject':
        if (!cr.subject.trim()) fail(rule.rule, 'the change request has no subject');
        break;
      case 'require_change_request_description':
        if (!cr.description?.trim()) fail(rule.rule, 'the change request has no description');
        break;
      case 'require_author_to_merge':
        if (attempt.actorId !== cr.createdById) fail(rule.rule, 'only the author of the change request may merge it');
        break;
      case 'custom':
        if (!expressionHolds(rule.expression, context!))
          unmet.push({ rule: rule.rule, message: rule.message ?? `custom: ${rule.expression} does not hold` });
        break;
    }
  }
  return unmet;
}

/** 409 naming every rule the change request does not meet (or a custom rule's own message). */
export async function assertMergeRulesMet(db: Db, attempt: MergeAttempt): Promise<void> {
  const unmet = await unmetMergeRules(db, attempt);
  if (unmet.length)
    throw conflict(`the merge rules are not met: ${unmet.map((u) => u.message).join('; ')}`, { rules: unmet });
}
