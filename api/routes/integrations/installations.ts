/**
 * Installations: install on an organization and list the integration's installations;
 * the installation item (GitBook's GET, PATCH, DELETE); installing it on spaces and sites with their
 * items; and the integration's space and site installations (`…/{integrationName}/spaces`, `/sites`).
 * The lists of the whole integration are for the admins of its owner organization; an
 * installation is also read by the installing organization's members and changed by its admins.
 */
import { In } from 'typeorm';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import {
  ContentInstallation,
  ContentKind,
  contentIdOf,
  findContentInstallation,
  installOnContent,
  uninstallFromContent,
  updateContentInstallation,
} from '../../../domain/integrations/content-installations';
import {
  contentInstallationsQuery,
  coveredSpaceCounts,
  installationsQuery,
} from '../../../domain/integrations/installation-queries';
import {
  installIntegration,
  uninstallIntegration,
  updateInstallation,
} from '../../../domain/integrations/installations';
import type { Integration } from '../../../entities/Integration';
import type { IntegrationInstallation } from '../../../entities/IntegrationInstallation';
import type { IntegrationSiteInstallation } from '../../../entities/IntegrationSiteInstallation';
import type { IntegrationSpaceInstallation } from '../../../entities/IntegrationSpaceInstallation';
import { Site } from '../../../entities/Site';
import { Space } from '../../../entities/Space';
import { inTransaction } from '../../../platform/db/transactions';
import type { Presented } from '../../../platform/wire/to-wire';
import { loadVisibleOrganization } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  installationSchema,
  presentInstallation,
  presentSiteInstallation,
  presentSpaceInstallation,
  siteInstallationSchema,
  spaceInstallationSchema,
} from '../../presenters/integration-installation';
import { Urls } from '../../presenters/urls';
import { presentSitesFor } from '../sites/present';
import { presentSpacesFor } from '../spaces/present';
import {
  authorizeInstallsOn,
  findContentOf,
  findVisibleInstallation,
  installationFor,
  integrationFor,
} from './installation-access';
import {
  extendedQuery,
  installationParams,
  installBody,
  installOnSiteBody,
  installOnSpaceBody,
  listContentInstallationsQuery,
  listInstallationContentQuery,
  listInstallationsQuery,
  siteInstallationParams,
  spaceInstallationParams,
  updateContentInstallationBody,
  updateInstallationBody,
} from './installation-schema';
import { integrationNameParams } from './schema';

/** What differs between installing on spaces and on sites: names, paths, bodies and presenters. */
const KINDS = {
  space: {
    plural: 'spaces',
    param: 'spaceId',
    field: 'space',
    params: spaceInstallationParams,
    body: installOnSpaceBody,
    schema: spaceInstallationSchema,
    ops: {
      listAll: 'listIntegrationSpaceInstallations',
      list: 'listIntegrationInstallationSpaces',
      install: 'installIntegrationOnSpace',
      get: 'getIntegrationSpaceInstallation',
      update: 'updateIntegrationSpaceInstallation',
      remove: 'uninstallIntegrationFromSpace',
    },
  },
  site: {
    plural: 'sites',
    param: 'siteId',
    field: 'siteId',
    params: siteInstallationParams,
    body: installOnSiteBody,
    schema: siteInstallationSchema,
    ops: {
      listAll: 'listIntegrationSiteInstallations',
      list: 'listIntegrationInstallationSites',
      install: 'installIntegrationOnSite',
      get: 'getIntegrationSiteInstallation',
      update: 'updateIntegrationSiteInstallation',
      remove: 'uninstallIntegrationFromSite',
    },
  },
} as const;

type PresentedContentInstallation =
  | Presented<typeof spaceInstallationSchema>
  | Presented<typeof siteInstallationSchema>;

export function installationRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  const urls = new Urls(config);
  const tags = ['integrations'];
  const base = '/v1/integrations/{integrationName}';
  const item = `${base}/installations/{installationId}`;

  async function presentInstallations(
    access: AccessContext,
    integration: Integration,
    installations: IntegrationInstallation[],
  ) {
    const counts = await coveredSpaceCounts(access.db, installations);
    return installations.map((installation) =>
      presentInstallation(integration, installation, counts.get(installation.id)!, config),
    );
  }

  /** Space or site installations as GitBook's objects; `extended`: with the whole Space or Site, presented for the caller. */
  async function presentContentInstallations(
    access: AccessContext,
    kind: ContentKind,
    integration: Integration,
    rows: ContentInstallation[],
    extended: boolean,
  ): Promise<PresentedContentInstallation[]> {
    const ids = rows.map((row) => contentIdOf(kind, row));
    if (kind === 'space') {
      const spaces =
        extended && ids.length
          ? await presentSpacesFor(access, await access.db.findBy(Space, { id: In(ids) }), urls)
          : [];
      const byId = new Map(spaces.map((s) => [s.id, s]));
      return rows.map((row) =>
        presentSpaceInstallation(
          integration,
          row as IntegrationSpaceInstallation,
          byId.get(contentIdOf(kind, row)) ?? null,
          config,
        ),
      );
    }
    const sites =
      extended && ids.length ? await presentSitesFor(access, await access.db.findBy(Site, { id: In(ids) }), urls) : [];
    const byId = new Map(sites.map((s) => [s.id, s]));
    return rows.map((row) =>
      presentSiteInstallation(
        integration,
        row as IntegrationSiteInstallation,
        byId.get(contentIdOf(kind, row)) ?? null,
        config,
      ),
    );
  }

  const installationKeys = [
    { column: 'x.createdAt', direction: 'ASC' as const, value: (r: IntegrationInstallation) => r.createdAt },
    { column: 'x.id', direction: 'ASC' as const, value: (r: IntegrationInstallation) => r.id },
  ];

  api.op(
    {
      method: 'get',
      path: `${base}/installations`,
      operationId: 'listIntegrationInstallations',
      tags,
      summary:
        "List the integration's installations, oldest first (admins of its owner organization, and the integration's own token)",
      description:
        "Lists the integration's installations on organizations, oldest first and paginated; `externalId` narrows the list. Needs `admin` on the integration's owner organization, or the integration's own token. Read-only.",
      params: integrationNameParams,
      query: listInstallationsQuery,
      responses: { 200: { description: 'installations', schema: listSchema(installationSchema) } },
    },
    async ({ params, query, access }) => {
      const integration = await integrationFor(access, params.integrationName, 'listInstallations');
      const page = await paginate(
        installationsQuery(access.db, integration.id, query.externalId),
        installationKeys,
        { limit: query.limit, page: query.page, scope: `installations:${integration.id}:${query.externalId ?? ''}` },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, await presentInstallations(access, integration, page.items)) };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${base}/installations`,
      operationId: 'installIntegration',
      tags,
      summary:
        'Install the integration on an organization (its admins; a private integration only in its owner organization): 201, or 200 with the installation it already has. `pending` while a required account configuration is missing',
      description:
        'Installs the integration on the organization named in the body, granting it the scopes published now: 201 with the new installation, which records an `installation_setup` event (`pending` while a required account setting is missing). Needs `installIntegration` (admin) on that organization, and a private integration installs only in its owner organization (403). When the organization already has it, answers 200 and grants the scopes published since, recording `installation_setup` again if any were pending.',
      params: integrationNameParams,
      body: installBody,
      responses: {
        201: { description: 'installed', schema: installationSchema },
        200: { description: 'already installed there', schema: installationSchema },
      },
    },
    async ({ params, body, caller, access }) => {
      const { integration, installation, created } = await inTransaction(api.deps, async (db) => {
        const writer = access.within(db);
        const integration = await integrationFor(writer, params.integrationName, 'view');
        const organization = await loadVisibleOrganization(writer, body.organization);
        await authorize(writer, { kind: 'organization', organization }, 'installIntegration');
        return { integration, ...(await installIntegration(db, integration, organization, caller.userId)) };
      });
      const [answer] = await presentInstallations(access, integration, [installation]);
      return created
        ? { status: 201, headers: { Location: answer.urls.location }, body: answer }
        : { status: 200, body: answer };
    },
  );

  api.op(
    {
      method: 'get',
      path: item,
      operationId: 'getIntegrationInstallationById',
      tags,
      extension: true,
      summary:
        "An installation (admins of the integration's owner organization, members of the organization it is installed in)",
      description:
        "Returns one installation of the integration. Visible to admins of the integration's owner organization, to members of the organization it is installed in, and to the integration's own tokens; anyone else gets a 404. Read-only.",
      params: installationParams,
      responses: { 200: { description: 'installation', schema: installationSchema } },
    },
    async ({ params, access }) => {
      const { integration, installation } = await installationFor(access, params, 'view');
      const [answer] = await presentInstallations(access, integration, [installation]);
      return { status: 200, body: answer };
    },
  );

  api.op(
    {
      method: 'patch',
      path: item,
      operationId: 'updateIntegrationInstallation',
      tags,
      extension: true,
      summary:
        'Update an installation (admins of the organization it is installed in): external ids, the configuration (replaced whole; it sets the status again), which spaces and sites it covers (`all` or `selected`)',
      description:
        'Changes an installation: its external ids, its account configuration (replaced whole, checked against the declared settings, which sets the status again) and which spaces and sites it covers. Needs `admin` on the organization it is installed in. Records an `installation_setup` event, with the previous status and configuration, when either changed.',
      params: installationParams,
      body: updateInstallationBody,
      responses: { 200: { description: 'installation', schema: installationSchema } },
    },
    async ({ params, body, access }) => {
      const { integration, installation } = await inTransaction(api.deps, async (db) => {
        const found = await installationFor(access.within(db), params, 'admin', true);
        const patch = {
          externalIds: body.externalIds,
          configuration: body.configuration,
          spaceSelection: body.space_selection,
          siteSelection: body.site_selection,
        };
        return {
          integration: found.integration,
          installation: await updateInstallation(db, found.integration, found.installation, patch),
        };
      });
      const [answer] = await presentInstallations(access, integration, [installation]);
      return { status: 200, body: answer };
    },
  );

  api.op(
    {
      method: 'delete',
      path: item,
      operationId: 'uninstallIntegration',
      tags,
      extension: true,
      summary:
        'Uninstall the integration from the organization, with its space and site installations (admins of that organization); 204 also when there is no such installation',
      description:
        'Uninstalls the integration from the organization, with all its space and site installations, recording an `installation_deleted` event. Needs `admin` on the organization it is installed in. Answers 204 also when there is no such installation or the caller cannot see it.',
      params: installationParams,
      responses: { 204: { description: 'uninstalled, or there was no such installation' } },
    },
    async ({ params, access }) => {
      await inTransaction(api.deps, async (db) => {
        const writer = access.within(db);
        const found = await findVisibleInstallation(writer, params, true);
        if (!found) return;
        await authorize(writer, { kind: 'integrationInstallation', ...found }, 'admin', 'installation');
        await uninstallIntegration(db, found.integration, found.installation);
      });
      return { status: 204 };
    },
  );

  for (const kind of ['space', 'site'] as const) contentInstallationRoutes(kind);

  function contentInstallationRoutes(kind: ContentKind): void {
    const k = KINDS[kind];
    const contentIdIn = (params: object) => (params as Record<string, string>)[k.param];
    const keys = [
      { column: 'x.createdAt', direction: 'ASC' as const, value: (r: ContentInstallation) => r.createdAt },
      { column: `x.${k.param}`, direction: 'ASC' as const, value: (r: ContentInstallation) => contentIdOf(kind, r) },
    ];

    /** The installation's row for the space or site of the path, with it (404 when there is none; a deleted space's row waits for the purge, unseen). */
    async function rowFor(
      access: AccessContext,
      installation: IntegrationInstallation,
      contentId: string,
      lock = false,
    ) {
      const row = await findContentInstallation(access.db, kind, installation.id, contentId, lock);
      const content = row && (await findContentOf(access, kind, installation, contentId));
      if (!row || !content) throw notFound(`${kind} installation`);
      return { row, content };
    }

    async function presentOne(
      access: AccessContext,
      integration: Integration,
      row: ContentInstallation,
      extended = false,
    ) {
      return (await presentContentInstallations(access, kind, integration, [row], extended))[0];
    }

    api.op(
      {
        method: 'get',
        path: `${base}/${k.plural}`,
        operationId: k.ops.listAll,
        tags,
        summary: `List the integration's ${kind} installations, oldest first (admins of its owner organization, and the integration's own token); \`extended=true\` gives whole ${kind === 'space' ? 'Space' : 'Site'} objects`,
        description: `Lists the integration's installations on ${k.plural} across every organization, oldest first and paginated; \`externalId\` narrows the list and \`extended=true\` gives whole ${kind === 'space' ? 'Space' : 'Site'} objects. Needs \`admin\` on the integration's owner organization, or the integration's own token. Read-only.`,
        params: integrationNameParams,
        query: listContentInstallationsQuery,
        responses: { 200: { description: `${kind} installations`, schema: listSchema(k.schema) } },
      },
      async ({ params, query, access }) => {
        const integration = await integrationFor(access, params.integrationName, 'listInstallations');
        const page = await paginate<ContentInstallation>(
          contentInstallationsQuery(access.db, kind, { integrationId: integration.id, externalId: query.externalId }),
          keys,
          {
            limit: query.limit,
            page: query.page,
            scope: `${kind}-installations:${integration.id}:${query.externalId ?? ''}`,
          },
          config.cursorSecret,
        );
        return {
          status: 200,
          body: presentList(
            page,
            await presentContentInstallations(access, kind, integration, page.items, query.extended ?? false),
          ),
        };
      },
    );

    api.op(
      {
        method: 'get',
        path: `${item}/${k.plural}`,
        operationId: k.ops.list,
        tags,
        extension: true,
        summary: `List the ${kind} installations of an installation, oldest first`,
        description: `Lists the ${k.plural} one installation is installed on, oldest first and paginated; \`extended=true\` gives whole ${kind === 'space' ? 'Space' : 'Site'} objects. Anyone who can read the installation: admins of the integration's owner organization, members of the organization it is installed in, and the integration's own tokens. Read-only.`,
        params: installationParams,
        query: listInstallationContentQuery,
        responses: { 200: { description: `${kind} installations`, schema: listSchema(k.schema) } },
      },
      async ({ params, query, access }) => {
        const { integration, installation } = await installationFor(access, params, 'view');
        const page = await paginate<ContentInstallation>(
          contentInstallationsQuery(access.db, kind, {
            integrationId: integration.id,
            installationId: installation.id,
          }),
          keys,
          { limit: query.limit, page: query.page, scope: `${kind}-installations-of:${installation.id}` },
          config.cursorSecret,
        );
        return {
          status: 200,
          body: presentList(
            page,
            await presentContentInstallations(access, kind, integration, page.items, query.extended ?? false),
          ),
        };
      },
    );

    api.op(
      {
        method: 'post',
        path: `${item}/${k.plural}`,
        operationId: k.ops.install,
        tags,
        extension: true,
        summary: `Install the integration on a ${kind} of the installation's organization (\`installIntegration\` on the ${kind}): 201, or 200 with the one it already has; the integration's \`target\` must allow ${k.plural}`,
        description: `Installs the integration on a ${kind} of the installation's organization (\`${k.field}\` in the body): 201 with the new ${kind} installation, which records a \`${kind}_installation_setup\` event, or 200 with the one it already has. Needs \`installIntegration\` (admin) on the ${kind}; 400 when the integration's \`target\` does not allow ${k.plural}.`,
        params: installationParams,
        query: extendedQuery,
        body: k.body,
        responses: {
          201: { description: 'installed', schema: k.schema },
          200: { description: `already installed on that ${kind}`, schema: k.schema },
        },
      },
      async ({ params, query, body, access }) => {
        const contentId = (body as Record<string, string>)[k.field];
        const { integration, row, created } = await inTransaction(api.deps, async (db) => {
          const writer = access.within(db);
          const { integration, installation } = await installationFor(writer, params, 'view', true);
          const content = await findContentOf(writer, kind, installation, contentId);
          if (!content) throw notFound(kind);
          await authorizeInstallsOn(writer, kind, content);
          return { integration, ...(await installOnContent(db, kind, integration, installation, contentId, k.field)) };
        });
        const answer = await presentOne(access, integration, row, query.extended);
        return created
          ? { status: 201, headers: { Location: answer.urls.location }, body: answer }
          : { status: 200, body: answer };
      },
    );

    api.op(
      {
        method: 'get',
        path: `${item}/${k.plural}/{${k.param}}`,
        operationId: k.ops.get,
        tags,
        extension: true,
        summary: `The installation on a ${kind}`,
        description: `Returns the installation on one ${kind}, with its own configuration and status. Anyone who can read the installation (admins of the integration's owner organization, members of the organization it is installed in, and the integration's own tokens); 404 when it is not installed on that ${kind}. Read-only.`,
        params: k.params,
        query: extendedQuery,
        responses: { 200: { description: `${kind} installation`, schema: k.schema } },
      },
      async ({ params, query, access }) => {
        const { integration, installation } = await installationFor(access, params, 'view');
        const { row } = await rowFor(access, installation, contentIdIn(params));
        return { status: 200, body: await presentOne(access, integration, row, query.extended) };
      },
    );

    api.op(
      {
        method: 'patch',
        path: `${item}/${k.plural}/{${k.param}}`,
        operationId: k.ops.update,
        tags,
        extension: true,
        summary: `Update the installation on a ${kind} (\`installIntegration\` on the ${kind}): external ids, the configuration (replaced whole; it sets the status again)`,
        description: `Changes the installation on a ${kind}: its external ids, and its ${kind} configuration (replaced whole, checked against the declared settings, which sets the status again). Needs \`installIntegration\` (admin) on the ${kind}. Records a \`${kind}_installation_setup\` event, with the previous status and configuration, when either changed.`,
        params: k.params,
        query: extendedQuery,
        body: updateContentInstallationBody,
        responses: { 200: { description: `${kind} installation`, schema: k.schema } },
      },
      async ({ params, query, body, access }) => {
        const { integration, row } = await inTransaction(api.deps, async (db) => {
          const writer = access.within(db);
          const { integration, installation } = await installationFor(writer, params, 'view', true);
          const { row, content } = await rowFor(writer, installation, contentIdIn(params), true);
          await authorizeInstallsOn(writer, kind, content, true);
          return { integration, row: await updateContentInstallation(db, kind, integration, installation, row, body) };
        });
        return { status: 200, body: await presentOne(access, integration, row, query.extended) };
      },
    );

    api.op(
      {
        method: 'delete',
        path: `${item}/${k.plural}/{${k.param}}`,
        operationId: k.ops.remove,
        tags,
        extension: true,
        summary: `Uninstall the integration from a ${kind} (\`installIntegration\` on the ${kind}); 204 also when it was not installed there`,
        description: `Uninstalls the integration from a ${kind}, recording a \`${kind}_installation_deleted\` event; the organization's installation stays. Needs \`installIntegration\` (admin) on the ${kind}. Answers 204 also when it was not installed there or the caller cannot see it.`,
        params: k.params,
        responses: { 204: { description: `uninstalled, or it was not installed on that ${kind}` } },
      },
      async ({ params, access }) => {
        await inTransaction(api.deps, async (db) => {
          const writer = access.within(db);
          const found = await findVisibleInstallation(writer, params, true);
          const row =
            found && (await findContentInstallation(db, kind, found.installation.id, contentIdIn(params), true));
          const content = row && (await findContentOf(writer, kind, found.installation, contentIdIn(params)));
          if (!found || !row || !content) return;
          await authorizeInstallsOn(writer, kind, content, true);
          await uninstallFromContent(db, kind, found.integration, found.installation, row);
        });
        return { status: 204 };
      },
    );
  }
}
