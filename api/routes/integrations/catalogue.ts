/**
 * Publishing and the catalogue: publish (create or update, 200), get, list with GitBook's
 * filters, unpublish (204; the integration stays a tombstone until its last deliveries end), and the
 * endpoints that serve what urls name, with or without a token (domain/integrations/assets.ts says to whom):
 * the script (urls.publicEndpoint, with the integration's Content-Security-Policy) and the icon and preview
 * images (urls.assets).
 */
import type { Request } from 'express';
import { z } from 'zod';
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { servesAssets } from '../../../domain/integrations/assets';
import { catalogueQuery } from '../../../domain/integrations/catalogue';
import {
  loadIntegrationByName,
  lockIntegrationByName,
  unpublishIntegration,
} from '../../../domain/integrations/integrations';
import { publishIntegration, publishingOrganization } from '../../../domain/integrations/publish';
import type { Integration } from '../../../entities/Integration';
import { Organization } from '../../../entities/Organization';
import { inTransaction } from '../../../platform/db/transactions';
import { hasIfMatch, requireMatch, taggedAnswer, versionTag } from '../../middleware/conditional';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder, Reply } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { integrationSchema, presentIntegration } from '../../presenters/integration';
import { integrationFor } from './installation-access';
import {
  assetParams,
  integrationNameParams,
  listIntegrationsQuery,
  publishIntegrationBody,
  publishParams,
} from './schema';

const binary = z.string().openapi({ format: 'binary' });

export function catalogueRoutes(api: ApiBuilder): void {
  const { ds, config, blobs, logger } = api.deps;
  const tags = ['integrations'];

  async function present(access: AccessContext, integration: Integration, owner?: Organization) {
    return (await presentTagged(access, integration, owner)).answer;
  }

  /**
   * The answer and its ETag: the row's version (`rowVersion`), the owner organization's last change (the answer
   * embeds it), and the caller's permissions on both.
   */
  async function presentTagged(access: AccessContext, integration: Integration, owner?: Organization) {
    owner ??= await access.db.findOneByOrFail(Organization, { id: integration.ownerOrganizationId });
    const [permissions, ownerPermissions] = await Promise.all([
      permissionsOf(access, { kind: 'integration', integration }),
      permissionsOf(access, { kind: 'organization', organization: owner }),
    ]);
    const bits = [...Object.values(permissions), ...Object.values(ownerPermissions)];
    return {
      answer: presentIntegration(integration, owner, permissions, ownerPermissions, config),
      etag: versionTag(integration.rowVersion, bits, owner.updatedAt.getTime()),
    };
  }

  /** `If-Match` of a publish or an unpublish, under the row lock the write holds (a gone integration: 412). */
  async function matchLocked(req: Request, access: AccessContext, integration: Integration | null) {
    const visible =
      integration && !integration.deletedAt && (await permissionsOf(access, { kind: 'integration', integration })).view;
    requireMatch(req, visible ? (await presentTagged(access, integration)).etag : null);
  }

  /** Blobs nothing points to any more; a failure leaves them behind, it never fails the request. */
  async function removeBlobs(keys: string[]) {
    await Promise.all(
      keys.map((key) => blobs.delete(key).catch((err) => logger.warn({ err, key }, 'integration blob not removed'))),
    );
  }

  api.op(
    {
      method: 'get',
      path: '/v1/integrations',
      operationId: 'listIntegrations',
      tags,
      summary:
        'List the public integrations, and the private ones of your organizations (unlisted ones are never listed), by name',
      description:
        "Lists the integrations the caller can see, sorted by name and paginated: every public one and the private ones of the caller's organizations; unlisted integrations are never listed. Any token may call it; the query filters narrow the list. Read-only.",
      query: listIntegrationsQuery,
      responses: { 200: { description: 'integrations', schema: listSchema(integrationSchema) } },
    },
    async ({ query, access }) => {
      const { limit, page, ...filters } = query;
      const result = await paginate(
        catalogueQuery(ds.manager, access.userId, filters),
        [
          { column: 'i.name', direction: 'ASC', value: (i) => i.name },
          { column: 'i.id', direction: 'ASC', value: (i) => i.id },
        ],
        { limit, page, scope: `integrations:${access.userId}:${JSON.stringify(filters)}` },
        config.cursorSecret,
      );
      const ownerIds = [...new Set(result.items.map((i) => i.ownerOrganizationId))];
      const owners = new Map(
        (ownerIds.length
          ? await ds.manager.findBy(
              Organization,
              ownerIds.map((id) => ({ id })),
            )
          : []
        ).map((o) => [o.id, o]),
      );
      const items = [];
      for (const integration of result.items)
        items.push(await present(access, integration, owners.get(integration.ownerOrganizationId)));
      return { status: 200, body: presentList(result, items) };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/integrations/{integrationName}',
      operationId: 'getIntegrationByName',
      tags,
      summary: 'Get an integration by its name (a private one only for the members of its organization)',
      description:
        'Returns the latest published version of an integration. A public or unlisted integration is visible to any caller, a private one only to members of its owner organization; anyone else gets the 404 of an unknown name. Read-only.',
      params: integrationNameParams,
      responses: {
        200: { description: 'integration', schema: integrationSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const integration = await integrationFor(access, params.integrationName, 'view');
      const { answer, etag } = await presentTagged(access, integration);
      return taggedAnswer(req, etag, () => answer);
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/integrations/{integrationName}',
      operationId: 'publishIntegration',
      tags,
      summary:
        'Publish an integration: creates it, or publishes a new version of it (version + 1); the caller must be an admin of `organization`',
      description:
        "Creates the integration under this name (version 1, with the bot user its tokens act as) or publishes its next version (version + 1); a publish states the whole manifest, so a field left out takes its default. Needs `admin` on the body's `organization`, which must be the organization that first published the name (403 otherwise). Stores the script, icon and preview images and removes the previous version's; scopes dropped from the manifest are withdrawn from the installations. 409 when going `private` while other organizations have it installed, or while the name is still being unpublished.",
      params: publishParams,
      body: publishIntegrationBody,
      responses: {
        200: { description: 'the published integration', schema: integrationSchema },
        412: {
          description:
            'the `If-Match` ETag is not the current one, or (with `If-Match`) no such integration is published (extension)',
        },
      },
    },
    async ({ params, body, access, req }) => {
      const { integration, organization, staleBlobKeys } = await inTransaction(ds, async (db) => {
        const within = access.within(db);
        const organization = await publishingOrganization(db, body.organization);
        await authorize(within, { kind: 'organization', organization }, 'admin');
        // the publish locks the same row again: the check holds until it commits
        if (hasIfMatch(req)) await matchLocked(req, within, await lockIntegrationByName(db, params.integrationName));
        return {
          ...(await publishIntegration(db, { blobs, config }, { ...body, name: params.integrationName, organization })),
          organization,
        };
      });
      await removeBlobs(staleBlobKeys);
      return { status: 200, body: await present(access, integration, organization) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/integrations/{integrationName}',
      operationId: 'unpublishIntegration',
      tags,
      summary:
        'Unpublish an integration: it is uninstalled everywhere (each installation gets its installation_deleted event first); 204 also when there was none',
      description:
        "Unpublishes the integration: it is uninstalled from every organization, each installation recording an `installation_deleted` event, and the name stays taken until the deliveries of those events end. Needs `admin` on the integration's owner organization (a user's token). Answers 204 also when there is no such integration or the caller cannot see it.",
      params: integrationNameParams,
      responses: {
        204: { description: 'unpublished, or did not exist' },
        412: { description: 'the `If-Match` ETag is not the current one, or the integration is gone (extension)' },
      },
    },
    async ({ params, access, req }) => {
      await inTransaction(api.deps, async (db) => {
        const within = access.within(db);
        const integration = await lockIntegrationByName(db, params.integrationName);
        if (hasIfMatch(req)) await matchLocked(req, within, integration);
        // none, a tombstone, or one the caller does not see: nothing to do, answered alike
        if (!integration || !(await permissionsOf(within, { kind: 'integration', integration })).view) return;
        await authorize(within, { kind: 'integration', integration }, 'admin');
        await unpublishIntegration(db, integration, access.userId);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/integrations/{integrationName}/script.js',
      operationId: 'getIntegrationScript',
      tags,
      anonymous: 'tokenOptional',
      extension: true,
      summary:
        "The integration's published script (its urls.publicEndpoint), with its Content-Security-Policy header: a public or unlisted integration's for anyone, a private one's for its organization's members, and for anyone while it is installed on a published site",
      description:
        "Serves the integration's published script (one ES module) with its Content-Security-Policy header; the token is optional. A public or unlisted integration's script goes to anyone, a private one's to members of its owner organization, and to anyone while it is installed on a published site. Read-only.",
      params: integrationNameParams,
      responses: { 200: { description: 'the script', contentType: 'text/javascript', schema: binary } },
    },
    async ({ params, access }) => {
      const integration = await servedIntegration(access, params.integrationName);
      const policy: Record<string, string> = integration.contentSecurityPolicy
        ? { 'Content-Security-Policy': integration.contentSecurityPolicy }
        : {};
      return servedBlob(integration.scriptKey, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': `${cacheScope(integration)}, max-age=60`,
        ...policy,
      });
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/integrations/{integrationName}/assets/{asset}',
      operationId: 'getIntegrationAsset',
      tags,
      anonymous: 'tokenOptional',
      extension: true,
      summary:
        "The integration's icon (icon.png, its urls.icon) or a preview image (preview-<n>.png), to whoever gets its script",
      description:
        "Serves the integration's icon (`icon.png`) or one of its preview images (`preview-0.png` to `preview-2.png`) as PNG, to whoever may get its script; the token is optional. 404 when the integration has no such image. Read-only.",
      params: assetParams,
      responses: { 200: { description: 'the image', contentType: 'image/png', schema: binary } },
    },
    async ({ params, access }) => {
      const integration = await servedIntegration(access, params.integrationName);
      const preview = /^preview-(\d)\.png$/.exec(params.asset);
      const key = preview ? integration.previewImageKeys[Number(preview[1])] : integration.iconKey;
      if (!key) throw notFound('asset');
      return servedBlob(key, {
        'Content-Type': 'image/png',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cache-Control': `${cacheScope(integration)}, max-age=300`,
      });
    },
  );

  /** A published integration (a tombstone is gone) whose script and images the caller gets; else the 404 of no such name. */
  async function servedIntegration(access: AccessContext, name: string): Promise<Integration> {
    const integration = await loadIntegrationByName(ds.manager, name);
    if (!integration || !(await servesAssets(access, integration))) throw notFound('integration');
    return integration;
  }

  /** A private integration's answer, perhaps to a member's token, is never kept by a shared cache. */
  function cacheScope(integration: Integration): 'public' | 'private' {
    return integration.visibility === 'private' ? 'private' : 'public';
  }

  /** A blob of the current version, as is; one a republish has just replaced reads as gone (404), never as a 500. */
  async function servedBlob(key: string, headers: Record<string, string>): Promise<Reply> {
    let raw: Buffer;
    try {
      raw = await blobs.read(key);
    } catch {
      throw notFound('asset');
    }
    return { status: 200, raw, headers: { ...headers, 'X-Content-Type-Options': 'nosniff' } };
  }
}
