/** A policy: the permissions of one resource kind for the caller, as the one authorization function registers it. */
import type { AccessContext } from '../context';
import type { PermissionsByKind, Target, TargetOf } from '../targets';

export type Policy<K extends Target['kind']> = (
  ctx: AccessContext,
  target: TargetOf<K>,
) => Promise<PermissionsByKind[K]>;

/** Names the kind once, so a policy's target and answer are typed by it. */
export function definePolicy<K extends Target['kind']>(_kind: K, policy: Policy<K>): Policy<K> {
  return policy;
}
