/**
 * The one access function for an integration's token: its scopes, mapped to our permissions, within
 * its installation's organization and selected spaces and sites; nothing for its own token beyond itself.
 */
import { permissionsOf, viewableContent, viewableSites } from '../../domain/access/authorize';
import { AccessContext } from '../../domain/access/context';
import type { IntegrationPrincipal } from '../../domain/access/integration-principal';
import { newId } from '../../domain/ids';
import type { Collection } from '../../entities/Collection';
import type { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { OpenAPISpec } from '../../entities/OpenAPISpec';
import type { Site } from '../../entities/Site';
import type { Space } from '../../entities/Space';
import { useServer } from '../support/server';

const server = useServer();

const orgId = newId();
const otherOrgId = newId();
const space = (organizationId = orgId) =>
  ({ id: newId(), organizationId, parentId: null, defaultLevel: null }) as unknown as Space;
const site = (organizationId = orgId) => ({ id: newId(), organizationId }) as unknown as Site;
const collection = { id: newId(), organizationId: orgId, parentId: null, defaultLevel: null } as unknown as Collection;
const spec = { id: newId(), organizationId: orgId } as unknown as OpenAPISpec;

function principal(
  scopes: string[],
  installation: Partial<NonNullable<IntegrationPrincipal['installation']>> | null = {},
): IntegrationPrincipal {
  return {
    integrationId: 'integration-1',
    scopes,
    installation: installation && {
      id: newId(),
      organizationId: orgId,
      spaceSelection: 'all',
      siteSelection: 'all',
      ...installation,
    },
  };
}

const ctxOf = (p: IntegrationPrincipal) =>
  new AccessContext(server.ds.manager, newId(), { memberships: [], grants: [], integration: p });

/** The permissions granted, by name. */
const granted = (permissions: object) =>
  Object.entries(permissions)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .sort();

describe('integration token scopes', () => {
  it('space:content:read sees the installation organization and its spaces, and changes nothing', async () => {
    const ctx = ctxOf(principal(['space:content:read']));
    expect(granted(await permissionsOf(ctx, { kind: 'space', space: space() }))).toEqual(['access', 'view']);
    expect(granted(await permissionsOf(ctx, { kind: 'collection', collection }))).toEqual(['view']);
    expect(granted(await permissionsOf(ctx, { kind: 'comment', space: space(), authorId: ctx.userId }))).toEqual([
      'view',
    ]);
    expect(granted(await permissionsOf(ctx, { kind: 'organization', organization: { id: orgId } }))).toEqual(['view']);
    expect(granted(await permissionsOf(ctx, { kind: 'site', site: site() }))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'openapiSpec', spec }))).toEqual([]);
  });

  it('space:content:write edits and merges, and never administers', async () => {
    const ctx = ctxOf(principal(['space:content:write']));
    expect(granted(await permissionsOf(ctx, { kind: 'space', space: space() }))).toEqual([
      'access',
      'edit',
      'merge',
      'review',
      'view',
    ]);
    expect(granted(await permissionsOf(ctx, { kind: 'translation', space: space() }))).toEqual([]);
  });

  it('the site, OpenAPI and conversation scopes give their own permissions only', async () => {
    const ctx = ctxOf(
      principal(['site:metadata:read', 'site:adaptive:write', 'openapi:write', 'conversations:ingest']),
    );
    expect(granted(await permissionsOf(ctx, { kind: 'site', site: site() }))).toEqual([
      'access',
      'editAdaptiveSchema',
      'view',
      'viewAdaptiveSchema',
    ]);
    const published = { ...site(), published: true } as Site;
    expect(granted(await permissionsOf(ctx, { kind: 'publishedSite', site: published, passes: [] }))).toEqual([
      'view',
      'viewAll',
    ]);
    // the published view of a site that is not published is nobody's
    expect(granted(await permissionsOf(ctx, { kind: 'publishedSite', site: site(), passes: [] }))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'openapiSpec', spec }))).toEqual(['edit', 'view']);
    expect(granted(await permissionsOf(ctx, { kind: 'organization', organization: { id: orgId } }))).toEqual([
      'createOpenAPISpec',
      'ingestConversations',
      'view',
    ]);
    expect(granted(await permissionsOf(ctx, { kind: 'space', space: space() }))).toEqual([]);
    const reader = ctxOf(principal(['openapi:read']));
    expect(granted(await permissionsOf(reader, { kind: 'openapiSpec', spec }))).toEqual(['view']);
  });

  it('grants nothing in another organization, whatever its scopes', async () => {
    const ctx = ctxOf(principal(['space:content:write', 'space:git:sync', 'site:metadata:read', 'openapi:write']));
    expect(granted(await permissionsOf(ctx, { kind: 'space', space: space(otherOrgId) }))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'organization', organization: { id: otherOrgId } }))).toEqual([]);
    expect(await viewableContent(ctx, otherOrgId)).toEqual({ everything: false, collectionIds: [], spaceIds: [] });
    expect(await viewableSites(ctx, otherOrgId)).toEqual({ everything: false, siteIds: [] });
  });

  it('with `selected` spaces and sites, reaches only those it is installed on, and no collection', async () => {
    const p = principal(['space:content:read', 'site:metadata:read'], {
      spaceSelection: 'selected',
      siteSelection: 'selected',
    });
    const [installedSpace, otherSpace, installedSite, otherSite] = [space(), space(), site(), site()];
    const row = {
      installationId: p.installation!.id,
      integrationId: p.integrationId,
      organizationId: orgId,
      status: 'active',
      configuration: {},
      externalIds: [],
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    await server.ds.manager.insert(IntegrationSpaceInstallation, { ...row, spaceId: installedSpace.id } as never);
    await server.ds.manager.insert(IntegrationSiteInstallation, { ...row, siteId: installedSite.id } as never);
    const ctx = ctxOf(p);
    expect((await permissionsOf(ctx, { kind: 'space', space: installedSpace })).view).toBe(true);
    expect((await permissionsOf(ctx, { kind: 'space', space: otherSpace })).view).toBe(false);
    expect((await permissionsOf(ctx, { kind: 'site', site: installedSite })).view).toBe(true);
    expect((await permissionsOf(ctx, { kind: 'site', site: otherSite })).view).toBe(false);
    expect((await permissionsOf(ctx, { kind: 'collection', collection })).view).toBe(false);
    expect(await viewableContent(ctx, orgId)).toEqual({
      everything: false,
      collectionIds: [],
      spaceIds: [installedSpace.id],
    });
    expect(await viewableSites(ctx, orgId)).toEqual({ everything: false, siteIds: [installedSite.id] });
  });

  it('lists every space and site of the organization with `all` and a read scope, none without one', async () => {
    expect(await viewableContent(ctxOf(principal(['space:content:read'])), orgId)).toEqual({ everything: true });
    expect(await viewableSites(ctxOf(principal(['site:metadata:read'])), orgId)).toEqual({ everything: true });
    expect(await viewableContent(ctxOf(principal(['site:metadata:read'])), orgId)).toEqual({
      everything: false,
      collectionIds: [],
      spaceIds: [],
    });
    expect(await viewableSites(ctxOf(principal(['space:content:read'])), orgId)).toEqual({
      everything: false,
      siteIds: [],
    });
  });

  it("the integration's own token reaches no organization content, only its integration and its installations, never as admin", async () => {
    const p = principal(['space:content:write', 'site:metadata:read', 'openapi:write'], null);
    const ctx = ctxOf(p);
    expect(granted(await permissionsOf(ctx, { kind: 'space', space: space() }))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'organization', organization: { id: orgId } }))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'site', site: site() }))).toEqual([]);
    const own = { id: p.integrationId, visibility: 'private', deletedAt: null } as Integration;
    const privateOther = { id: 'integration-2', visibility: 'private', deletedAt: null } as Integration;
    const publicOther = { id: 'integration-3', visibility: 'public', deletedAt: null } as Integration;
    expect(granted(await permissionsOf(ctx, { kind: 'integration', integration: own }))).toEqual([
      'listInstallations',
      'view',
    ]);
    expect(granted(await permissionsOf(ctx, { kind: 'integration', integration: privateOther }))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'integration', integration: publicOther }))).toEqual(['view']);
    const installation = {
      id: newId(),
      integrationId: p.integrationId,
      organizationId: otherOrgId,
    } as IntegrationInstallation;
    // the integration's token sees each of its installations and mints their tokens
    expect(
      granted(await permissionsOf(ctx, { kind: 'integrationInstallation', integration: own, installation })),
    ).toEqual(['issueToken', 'view']);
    // an installation token sees its own installation only, and mints nothing
    const installationToken = ctxOf(principal([]));
    expect(
      granted(
        await permissionsOf(installationToken, { kind: 'integrationInstallation', integration: own, installation }),
      ),
    ).toEqual([]);
    const itsOwn = {
      id: installationToken.integration!.installation!.id,
      integrationId: p.integrationId,
      organizationId: orgId,
    } as IntegrationInstallation;
    expect(
      granted(
        await permissionsOf(installationToken, {
          kind: 'integrationInstallation',
          integration: own,
          installation: itsOwn,
        }),
      ),
    ).toEqual(['view']);
  });

  it('a token without scopes holds only what needs none: seeing its organization', async () => {
    const ctx = ctxOf(principal([]));
    const targets = [
      { kind: 'space', space: space() },
      { kind: 'collection', collection },
      { kind: 'site', site: site() },
      { kind: 'openapiSpec', spec },
      { kind: 'team', team: { id: newId(), organizationId: orgId } },
    ] as const;
    for (const target of targets) expect(granted(await permissionsOf(ctx, target as never))).toEqual([]);
    expect(granted(await permissionsOf(ctx, { kind: 'organization', organization: { id: orgId } }))).toEqual(['view']);
  });
});
