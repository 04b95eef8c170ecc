/** Who holds which role on content and sites: GitBook's permission list items, and where an aggregate's role comes from. */
import { z } from 'zod';
import type { RoleHolder } from '../../domain/access/role-holders';
import type { Role } from '../../domain/access/roles';
import type { User } from '../../entities/User';
import type { Presented } from '../../platform/wire/to-wire';
import { roleSchema } from './common';
import { type TeamJson, teamSchema } from './team';
import type { Urls } from './urls';
import { presentUser, userSchema } from './user';

export const userContentPermissionSchema = z
  .object({
    permission: roleSchema.openapi({ description: 'the role the user holds on the content' }),
    user: userSchema,
  })
  .openapi('UserContentPermission', { description: 'Permission of a user in a content.' });

export const teamContentPermissionSchema = z
  .object({
    permission: roleSchema.openapi({ description: 'the role given to the team on the content' }),
    team: teamSchema,
  })
  .openapi('TeamContentPermission', { description: 'Permission of a team in a content.' });

const grantVia = z.enum(['defaultLevel', 'user', 'team']).openapi({
  description:
    '`defaultLevel`: the default level set there; `user`: a role given there to the user; `team`: a role given there to one of their teams',
});
const grantTeam = z
  .string()
  .nullable()
  .openapi({ description: 'id of the team given the role (`via: team`); null otherwise' });

const originSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('organization').openapi({ description: 'the role is set on the organization' }),
      organization: z.string().openapi({ description: 'id of the organization' }),
      via: z.literal('role').openapi({ description: "the member's organization role" }),
      team: z.null().openapi({ description: 'always null' }),
    }),
    z.object({
      type: z.literal('collection').openapi({ description: 'the role is set on a collection' }),
      collection: z.string().openapi({ description: 'id of the collection (the content or one holding it)' }),
      via: grantVia,
      team: grantTeam,
    }),
    z.object({
      type: z.literal('space').openapi({ description: 'the role is set on the space itself' }),
      space: z.string().openapi({ description: 'id of the space' }),
      via: grantVia,
      team: grantTeam,
    }),
  ])
  .openapi({
    'x-extension': true,
    description:
      'extension: where the role comes from, so an admin knows what to change: the organization role, or the default level or a grant on the content or a collection holding it (when several give the same role: the inherited one, then the nearest grant)',
  });

export const userContentAccessSchema = userContentPermissionSchema
  .extend({ origin: originSchema })
  .openapi('UserContentAccess', {
    description: 'Permission of a user in a content: the role they end up with, and (extension) where it comes from.',
  });

export const userSitePermissionSchema = z
  .object({
    permission: roleSchema.openapi({ description: 'the role the user holds on the site' }),
    user: userSchema,
    origin: z
      .object({
        type: z.literal('organization').openapi({ description: 'always `organization`' }),
        organization: z.string().openapi({ description: 'id of the organization' }),
      })
      .openapi({ description: "what sets the role: a site's members hold their organization role on it" }),
    disabled: z
      .boolean()
      .openapi({ description: 'whether the member is disabled: always false, a disabled member has no access' }),
  })
  .openapi('UserSitePermission', { description: 'Permission of a user in a site.' });

export function presentUserContentPermission(
  role: Role,
  user: User,
  urls: Urls,
): Presented<typeof userContentPermissionSchema> {
  return { permission: role, user: presentUser(user, urls) };
}

export function presentTeamContentPermission(
  role: Role,
  team: TeamJson,
): Presented<typeof teamContentPermissionSchema> {
  return { permission: role, team };
}

function presentOrigin(holder: RoleHolder, organizationId: string): Presented<typeof originSchema> {
  const { origin } = holder;
  if (origin.from === 'organization')
    return { type: 'organization', organization: organizationId, via: 'role', team: null };
  const via = origin.from === 'defaultLevel' ? 'defaultLevel' : origin.grant.principalKind;
  const team = origin.from === 'grant' && origin.grant.principalKind === 'team' ? origin.grant.principalId : null;
  return origin.content.kind === 'space'
    ? { type: 'space', space: origin.content.id, via, team }
    : { type: 'collection', collection: origin.content.id, via, team };
}

export function presentUserContentAccess(
  holder: RoleHolder,
  user: User,
  organizationId: string,
  urls: Urls,
): Presented<typeof userContentAccessSchema> {
  return { permission: holder.role, user: presentUser(user, urls), origin: presentOrigin(holder, organizationId) };
}

export function presentUserSitePermission(
  role: Role,
  user: User,
  organizationId: string,
  urls: Urls,
): Presented<typeof userSitePermissionSchema> {
  return {
    permission: role,
    user: presentUser(user, urls),
    origin: { type: 'organization', organization: organizationId },
    disabled: false,
  };
}
