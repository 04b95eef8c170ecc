import { z } from 'zod';
import { roleSchema, timestamp } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { pathId, resourceId } from '../../schemas';

/** Addresses one invitation takes at most: a team's worth, and a bounded transaction. */
const MAX_INVITED = 100;

/** An address on one line: no CR or LF (a header injection) and nothing but an address. */
const email = z.string().trim().max(320).email().openapi({ description: 'an e-mail address (at most 320 characters)' });

export const organizationIdParams = { organizationId: pathId('organization') };

export const inviteUsersBody = z
  .object({
    emails: z
      .array(
        z.union([
          email,
          z
            .object({
              email,
              role: roleSchema.nullable().openapi({ description: "this person's role; null: a guest" }),
            })
            .strict(),
        ]),
      )
      .min(1)
      .max(MAX_INVITED)
      .openapi({
        description: `1 to ${MAX_INVITED} people: an address, or an address with its own role; the same address twice counts once`,
      }),
    role: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'the role of the addresses given without one; omitted or null: guests' }),
    sso: z.boolean().optional().openapi({ description: 'mark the people added as SSO members (default false)' }),
  })
  .strict()
  .openapi('InviteUsersToOrganization');

export const inviteUsersResponse = z.object({
  users: z.array(z.string()).openapi({ description: 'ids of the users added to the organization' }),
  invited: z.number().openapi({ description: 'how many users were added' }),
  mailed: z.boolean().openapi({
    description:
      'each person added was sent an invitation with the link that issues their first API token; false: no SMTP server is configured, nobody was mailed',
  }),
});

/** A first-token link's secret: its length bounded, its value checked against the stored hashes. */
export const inviteTokenParams = {
  inviteToken: z.string().max(100).openapi({ description: 'the secret of the link in an invitation mail (`dpi_…`)' }),
};

export const firstTokenResponse = z.object({
  organizationId: z.string().openapi({ description: 'the organization the invitation is into' }),
  userId: z.string().openapi({ description: 'the invited user, whom the token authenticates' }),
});

export const linkInviteParams = {
  organizationId: pathId('organization'),
  inviteId: pathId('invite').openapi({ description: 'id of the invite link, which is its secret' }),
};

export const listLinkInvitesQuery = { ...paginationQuery };

/** The extensions that end a link early, on create and update. */
const linkExtensions = {
  expiresAt: timestamp.nullable().optional().openapi({
    'x-extension': true,
    description: 'extension: when the link stops letting people join, in the future; null or omitted: never',
  }),
  disabled: z
    .boolean()
    .optional()
    .openapi({ 'x-extension': true, description: 'extension: the link lets nobody join until enabled again' }),
};

const inFuture = (b: { expiresAt?: string | null }, ctx: z.RefinementCtx) => {
  if (b.expiresAt && Date.parse(b.expiresAt) <= Date.now())
    ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'must be in the future' });
};

/**
 * GitBook's three forms in one object, so that a mistake is named by its field: `{role}` to the organization,
 * `{level, space}` or `{level, collection}` to content.
 */
export const createLinkInviteBody = z
  .object({
    role: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'a link to the organization: the role of who joins (null: a guest)' }),
    level: roleSchema
      .optional()
      .openapi({ description: 'a link to a space or a collection: the level of who joins on it' }),
    space: resourceId.optional().openapi({ description: 'id of the space the link is to, in this organization' }),
    collection: resourceId
      .optional()
      .openapi({ description: 'id of the collection the link is to, in this organization' }),
    ...linkExtensions,
  })
  .strict()
  .superRefine((b, ctx) => {
    const content = b.space !== undefined || b.collection !== undefined;
    if (b.space !== undefined && b.collection !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['collection'],
        message: 'a link is to a space or to a collection, not both',
      });
    if (content && b.role !== undefined)
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'a link to a space or a collection takes a level' });
    if (content && b.level === undefined)
      ctx.addIssue({ code: 'custom', path: ['level'], message: 'required with space or collection' });
    if (!content && b.level !== undefined)
      ctx.addIssue({ code: 'custom', path: ['space'], message: 'a level needs the space or the collection it is on' });
    if (!content && b.level === undefined && b.role === undefined)
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'required (or level with space or collection)' });
    inFuture(b, ctx);
  })
  .openapi('CreateOrganizationInvite', {
    description: 'An invite link to the organization with a role, or to a space or a collection with a level',
  });

export const updateLinkInviteBody = z
  .object({
    role: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'a link to the organization: the new role of who joins (null: a guest)' }),
    level: roleSchema.optional().openapi({ description: 'a link to a space or a collection: the new level' }),
    ...linkExtensions,
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.role !== undefined && b.level !== undefined)
      ctx.addIssue({ code: 'custom', path: ['level'], message: 'a link takes a role or a level, not both' });
    if (Object.keys(b).length === 0)
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'nothing to change: give role or level' });
    inFuture(b, ctx);
  });

export const joinOrganizationResponse = z
  .object({})
  .openapi({ description: 'joined, or already holding what the link gives' });
