/** GitBook's OrganizationInviteLink: an invite link to the organization, a space or a collection, and our extensions. */
import { z } from 'zod';
import type { CollectionPermissions, SpacePermissions } from '../../domain/access/targets';
import type { SpaceCounters } from '../../domain/spaces/counters';
import type { Collection } from '../../entities/Collection';
import type { LinkInvite } from '../../entities/LinkInvite';
import type { Space } from '../../entities/Space';
import { type Presented, toWire } from '../../platform/wire/to-wire';
import { collectionSchema, presentCollection } from './collection';
import { isoOrNull, roleSchema, timestamp } from './common';
import { presentSpace, spaceSchema } from './space';
import type { Urls } from './urls';

const common = {
  object: z.literal('invite').openapi({ description: 'always `invite`' }),
  id: z.string().openapi({
    description:
      'id of the link, and its secret: whoever holds it can join with `POST /v1/orgs/{organizationId}/invites/{inviteId}`',
  }),
  redundant: z.boolean().openapi({ description: 'the caller already holds everything the link gives' }),
  expiresAt: timestamp.nullable().openapi({
    'x-extension': true,
    description: 'extension: when the link stops letting people join; null: never',
  }),
  disabled: z.boolean().openapi({
    'x-extension': true,
    description: 'extension: the link lets nobody join until enabled again',
  }),
};
const level = roleSchema.openapi({ description: 'the level the person joining gets on the content' });

export const inviteLinkToOrganizationSchema = z
  .object({
    ...common,
    role: roleSchema.nullable().openapi({ description: 'the organization role of the person joining; null: a guest' }),
  })
  .openapi('InviteLinkToOrganization', { description: 'An invite link to an organization' });

const inviteLinkToSpaceSchema = z.object({ ...common, level, space: spaceSchema }).openapi('InviteLinkToSpace', {
  description: 'An invite link to a space: the person joins as a guest with a level on it',
});

const inviteLinkToCollectionSchema = z
  .object({ ...common, level, collection: collectionSchema })
  .openapi('InviteLinkToCollection', {
    description: 'An invite link to a collection: the person joins as a guest with a level on it and what it holds',
  });

export const organizationInviteLinkSchema = z
  .union([inviteLinkToOrganizationSchema, inviteLinkToSpaceSchema, inviteLinkToCollectionSchema])
  .openapi('OrganizationInviteLink', { description: 'An invite link created in an organization' });

/** The link's target as presented to the caller: the space or the collection with the caller's permissions on it. */
export type PresentedTarget =
  | { kind: 'organization' }
  | { kind: 'space'; space: Space; permissions: SpacePermissions; counters: SpaceCounters }
  | { kind: 'collection'; collection: Collection; permissions: CollectionPermissions };

/** The space or collection is written for the wire here: the answer's union tells its forms apart by no literal. */
export function presentLinkInvite(
  invite: LinkInvite,
  target: PresentedTarget,
  redundant: boolean,
  urls: Urls,
): Presented<typeof organizationInviteLinkSchema> {
  const base = {
    object: 'invite' as const,
    id: invite.id,
    redundant,
    expiresAt: isoOrNull(invite.expiresAt),
    disabled: invite.disabled,
  };
  if (target.kind === 'space')
    return {
      ...base,
      level: invite.role!,
      space: toWire(spaceSchema, presentSpace(target.space, target.permissions, target.counters, urls)),
    };
  if (target.kind === 'collection')
    return {
      ...base,
      level: invite.role!,
      collection: toWire(collectionSchema, presentCollection(target.collection, target.permissions, urls)),
    };
  return { ...base, role: invite.role };
}
