import { z } from 'zod';
import { pathId } from '../../schemas';
import { roleSchema } from '../../presenters/common';

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
