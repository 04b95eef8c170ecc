/**
 * OpenAPI specifications of an organization (GitBook's 11 operations), and the published copies of
 * public ones. Create and replace ask for the openapi-process job in the request's transaction and
 * start it after the commit; every answer is read from the rows, never from Temporal.
 */

import { authorize, permissionsOf } from '../../../domain/access/authorize';
import { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { JobTicket } from '../../../domain/jobs/job-kind';
import { removeBlobs } from '../../../domain/openapi-specs/processing';
import { specsOfOrganizationQuery, versionsOfSpecQuery } from '../../../domain/openapi-specs/queries';
import {
  createSpec,
  deleteSpec,
  lockSpecBySlug,
  replaceSpecSource,
  StoredSource,
  setSpecVisibility,
  storeSourceText,
} from '../../../domain/openapi-specs/specs';
import { readBundle } from '../../../domain/openapi-specs/versions';
import { OpenAPISpec } from '../../../entities/OpenAPISpec';
import { OpenAPISpecVersion } from '../../../entities/OpenAPISpecVersion';
import type { Organization } from '../../../entities/Organization';
import type { WorkTx } from '../../../platform/db/after-commit';
import { inTransaction } from '../../../platform/db/transactions';
import { loadVisibleOrganization } from '../../loaders';
import { requireMatch, taggedAnswer, versionTag } from '../../middleware/conditional';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  openAPISpecContentSchema,
  openAPISpecSchema,
  openAPISpecVersionSchema,
  presentOpenAPISpec,
  presentOpenAPISpecContent,
  presentOpenAPISpecVersion,
} from '../../presenters/openapi-spec';
import { Urls } from '../../presenters/urls';
import { organizationIdParams } from '../orgs/schema';
import {
  createSpecBody,
  listSpecsQuery,
  listVersionsQuery,
  patchSpecBody,
  putSpecBody,
  putSpecParams,
  specParams,
  versionParams,
} from './schema';

type SourceInput = { url?: string; text?: string };
/** What a 404 names, the same for a spec that does not exist and for one the caller may not see. */
const SPEC = 'OpenAPI specification';

export function openAPISpecRoutes(api: ApiBuilder): void {
  const { ds, config, logger, blobs } = api.deps;
  const urls = new Urls(config);
  const tags = ['openapi'];

  /** A spec the caller may view (the openapiSpec policy), or 404 (for the organization first, then the spec). */
  async function loadSpec(access: AccessContext, organizationId: string, slug: string): Promise<OpenAPISpec> {
    await loadVisibleOrganization(access, organizationId);
    const spec = await access.db.findOneBy(OpenAPISpec, { organizationId, slug });
    if (!spec) throw notFound(SPEC);
    await authorize(access, { kind: 'openapiSpec', spec }, 'view', SPEC);
    return spec;
  }

  /**
   * Whether the caller may view the organization's specs. The policy decides by the organization alone (its
   * full members; an installation token with an openapi scope), so it is asked once for the whole list.
   */
  async function specsViewable(access: AccessContext, organizationId: string): Promise<boolean> {
    const anySpec = Object.assign(new OpenAPISpec(), { organizationId });
    return (await permissionsOf(access, { kind: 'openapiSpec', spec: anySpec })).view;
  }

  async function loadVersion(spec: OpenAPISpec, versionId: string | null): Promise<OpenAPISpecVersion> {
    const version = versionId
      ? await ds.manager.findOneBy(OpenAPISpecVersion, { id: versionId, specId: spec.id })
      : null;
    if (!version) throw notFound('OpenAPI specification version');
    return version;
  }

  /** The version's source: its URL, or a download URL of the submitted text. */
  async function versionUrl(version: OpenAPISpecVersion): Promise<string> {
    if (version.sourceUrl) return version.sourceUrl;
    return blobs.downloadUrl(version.sourceTextKey!, {
      filename: 'openapi.txt',
      contentType: 'text/plain; charset=utf-8',
    });
  }

  /** Stores a text source under the spec's folder; a URL is kept as given. */
  async function storedSource(specId: string, source: SourceInput): Promise<StoredSource> {
    return source.url !== undefined
      ? { url: source.url }
      : { textKey: await storeSourceText(blobs, specId, source.text!) };
  }

  /** Creates a spec under a new id, its source stored there; the caller needs createOpenAPISpec. */
  async function createIn(
    db: WorkTx,
    access: AccessContext,
    organization: Organization,
    slug: string,
    source: SourceInput,
  ): Promise<JobTicket<OpenAPISpec>> {
    await authorize(access, { kind: 'organization', organization }, 'createOpenAPISpec');
    const id = newId();
    return createSpec(db, {
      id,
      organizationId: organization.id,
      slug,
      source: await storedSource(id, source),
      createdById: access.userId,
    });
  }

  const present = async (access: AccessContext, spec: OpenAPISpec) =>
    presentOpenAPISpec(spec, await permissionsOf(access, { kind: 'openapiSpec', spec }), urls);

  /** The spec's ETag for the caller: the row's version (its processing state included) and the caller's permissions. */
  const specTag = async (access: AccessContext, spec: OpenAPISpec) =>
    versionTag(spec.version, await permissionsOf(access, { kind: 'openapiSpec', spec }));

  /** After the commit (which started the processing the request asked for): presents the spec. */
  const presentCommitted = (ticket: JobTicket<OpenAPISpec>, caller: AccessContext) =>
    present(caller.within(ds.manager), ticket.row);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/openapi',
      operationId: 'listOpenAPISpecs',
      tags,
      summary: 'List the OpenAPI specifications of an organization, by slug',
      description:
        "Lists the organization's OpenAPI specifications, sorted by slug and paginated. Any full member of the organization, or an integration token with `openapi:read` or `openapi:write`; a caller who may not view them gets an empty list. Read-only.",
      params: organizationIdParams,
      query: listSpecsQuery,
      responses: { 200: { description: 'specifications', schema: listSchema(openAPISpecSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadVisibleOrganization(access, params.organizationId);
      if (!(await specsViewable(access, organization.id)))
        return { status: 200, body: presentList({ items: [], count: 0 }, []) };
      const page = await paginate(
        specsOfOrganizationQuery(ds.manager, organization.id),
        [
          { column: 's.slug', direction: 'ASC', value: (s) => s.slug },
          { column: 's.id', direction: 'ASC', value: (s) => s.id },
        ],
        { limit: query.limit, page: query.page, scope: `openapi:${organization.id}` },
        config.cursorSecret,
      );
      const items = [];
      for (const spec of page.items) items.push(await present(access, spec));
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/openapi',
      operationId: 'createOpenAPISpec',
      tags,
      summary:
        'Create an OpenAPI specification from a URL or a text; its processing starts at once (409 when the slug is taken)',
      description:
        'Creates a specification under a new slug (409 when it is taken) from a URL or a text, and starts its `openapi-process` job, which fetches or reads the document, bundles it and stores its first version. Needs the `create` role on the organization, or an integration token with `openapi:write`. Follow the run with `processingState`, or with `node dist/cli/main.js jobs watch <specId>`.',
      params: organizationIdParams,
      body: createSpecBody,
      responses: { 201: { description: 'created, processing pending', schema: openAPISpecSchema } },
    },
    async ({ params, body, access: caller }) => {
      const ticket = await inTransaction(api.deps, async (db) => {
        const access = caller.within(db);
        return createIn(
          db,
          access,
          await loadVisibleOrganization(access, params.organizationId),
          body.slug,
          body.source,
        );
      });
      const answer = await presentCommitted(ticket, caller);
      return { status: 201, headers: { Location: answer.urls.location }, body: answer };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
      operationId: 'getOpenAPISpecBySlug',
      tags,
      summary: 'Get an OpenAPI specification and the state of its processing',
      description:
        'Returns a specification with the state of its processing and the problems of its last failed run. Any full member of the organization, or an integration token with an `openapi:` scope; others get a 404. Read-only.',
      params: specParams,
      responses: {
        200: { description: 'specification', schema: openAPISpecSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const spec = await loadSpec(access, params.organizationId, params.specSlug);
      return taggedAnswer(req, await specTag(access, spec), () => present(access, spec));
    },
  );

  api.op(
    {
      method: 'put',
      path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
      operationId: 'createOrUpdateOpenAPISpecBySlug',
      tags,
      summary:
        'Create (201) or replace the source of (200) the specification with this slug; either way it is processed again',
      description:
        'Creates the specification with this slug (201) or replaces the source of the existing one (200); either way its `openapi-process` job runs again and stores a new version when the document changed (`node dist/cli/main.js jobs watch <specId>`). Needs the `create` role on the organization, or an integration token with `openapi:write`; it is asked before the slug is looked up, so a refusal never tells whether the slug exists.',
      params: putSpecParams,
      body: putSpecBody,
      responses: {
        200: { description: 'source replaced, processing pending', schema: openAPISpecSchema },
        201: { description: 'created, processing pending', schema: openAPISpecSchema },
        412: {
          description:
            'the `If-Match` ETag is not the current one, or (with `If-Match`) there is no specification with this slug (extension)',
        },
      },
    },
    async ({ params, body, access: caller, req }) => {
      const { ticket, created } = await inTransaction(api.deps, async (db) => {
        const access = caller.within(db);
        const organization = await loadVisibleOrganization(access, params.organizationId);
        // asked first, so a caller who may not create specs gets the same 403 whether the slug is taken or
        // not (editing one takes the same role or scope): the answer never tells which slugs exist
        await authorize(access, { kind: 'organization', organization }, 'createOpenAPISpec');
        const existing = await lockSpecBySlug(db, organization.id, params.specSlug);
        if (!existing) {
          requireMatch(req, null); // `If-Match` names a current specification: it never creates one
          return { ticket: await createIn(db, access, organization, params.specSlug, body.source), created: true };
        }
        await authorize(access, { kind: 'openapiSpec', spec: existing }, 'edit', SPEC);
        // under the row lock: of two writers holding one ETag, the second gets 412
        requireMatch(req, await specTag(access, existing));
        return {
          ticket: await replaceSpecSource(db, existing, await storedSource(existing.id, body.source)),
          created: false,
        };
      });
      const answer = await presentCommitted(ticket, caller);
      return created
        ? { status: 201, headers: { Location: answer.urls.location }, body: answer }
        : { status: 200, body: answer };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
      operationId: 'updateOpenAPISpecBySlug',
      tags,
      summary: 'Change the visibility of a specification (public versions are readable by anyone at urls.published)',
      description:
        'Sets the visibility of a specification: `public` serves its versions to anyone, without a token, at urls.published; `private` stops that. Needs edit on the specification (the `create` role on the organization, or `openapi:write`). Starts no processing.',
      params: specParams,
      body: patchSpecBody,
      responses: {
        200: { description: 'specification', schema: openAPISpecSchema },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, body, access: caller, req }) => {
      const spec = await inTransaction(ds, async (db) => {
        const access = caller.within(db);
        const organization = await loadVisibleOrganization(access, params.organizationId);
        const spec = await lockSpecBySlug(db, organization.id, params.specSlug);
        if (!spec) throw notFound(SPEC);
        await authorize(access, { kind: 'openapiSpec', spec }, 'edit', SPEC);
        requireMatch(req, await specTag(access, spec));
        await setSpecVisibility(db, spec, body.visibility);
        return spec;
      });
      return { status: 200, body: await present(caller.within(ds.manager), spec) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
      operationId: 'deleteOpenAPISpecBySlug',
      tags,
      summary: 'Delete a specification and its versions (204 also when there was none with this slug)',
      description:
        'Deletes the specification with its versions and their stored files, withdrawing a processing run under way. Needs edit on the specification (the `create` role on the organization, or `openapi:write`). Answers 204 also when there is no specification with this slug.',
      params: specParams,
      responses: {
        204: { description: 'deleted, or did not exist' },
        412: { description: 'the `If-Match` ETag is not the current one, or the specification is gone (extension)' },
      },
    },
    async ({ params, access: caller, req }) => {
      const deleted = await inTransaction(api.deps, async (db) => {
        const access = caller.within(db);
        const organization = await loadVisibleOrganization(access, params.organizationId);
        const spec = await lockSpecBySlug(db, organization.id, params.specSlug);
        if (!spec) {
          requireMatch(req, null);
          return null;
        }
        await authorize(access, { kind: 'openapiSpec', spec }, 'edit', SPEC);
        requireMatch(req, await specTag(access, spec));
        return deleteSpec(db, spec);
      });
      if (deleted) await removeBlobs({ blobs, logger }, deleted.blobKeys);
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions',
      operationId: 'listOpenAPISpecVersions',
      tags,
      summary: 'List the versions of a specification, newest first',
      description:
        'Lists the stored versions of a specification, newest first and paginated; only the newest OPENAPI_VERSIONS_KEPT (20 by default) are kept. Anyone who can view the specification. Read-only.',
      params: specParams,
      query: listVersionsQuery,
      responses: { 200: { description: 'versions', schema: listSchema(openAPISpecVersionSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const spec = await loadSpec(access, params.organizationId, params.specSlug);
      const page = await paginate(
        versionsOfSpecQuery(ds.manager, spec.id),
        [
          { column: 'v.createdAt', direction: 'DESC', value: (v) => v.createdAt },
          { column: 'v.id', direction: 'DESC', value: (v) => v.id },
        ],
        { limit: query.limit, page: query.page, scope: `openapiVersions:${spec.id}:${caller.userId}` },
        config.cursorSecret,
      );
      const items = [];
      for (const v of page.items) items.push(presentOpenAPISpecVersion(spec, v, await versionUrl(v), urls));
      return { status: 200, body: presentList(page, items) };
    },
  );

  // `latest` before `{versionId}`, which would otherwise take it for an id
  for (const which of ['latest', 'byId'] as const) {
    const byId = which === 'byId';
    const base = `/v1/orgs/{organizationId}/openapi/{specSlug}/versions/${byId ? '{versionId}' : 'latest'}`;
    const idOf = (spec: OpenAPISpec, params: { specSlug: string; versionId?: string }) =>
      byId ? params.versionId! : spec.lastVersionId;

    api.op(
      {
        method: 'get',
        path: base,
        operationId: byId ? 'getOpenAPISpecVersionById' : 'getLatestOpenAPISpecVersion',
        tags,
        summary: byId
          ? 'Get a version of a specification'
          : 'Get the newest version of a specification (404 before the first successful processing)',
        description: byId
          ? 'Returns one stored version of a specification, with the URL of its source. Anyone who can view the specification. Read-only.'
          : 'Returns the newest stored version of a specification, with the URL of its source; 404 until a processing run has stored one. Anyone who can view the specification. Read-only.',
        params: byId ? versionParams : specParams,
        responses: { 200: { description: 'version', schema: openAPISpecVersionSchema } },
      },
      async ({ params, access }) => {
        const spec = await loadSpec(access, params.organizationId, params.specSlug);
        const version = await loadVersion(spec, idOf(spec, params));
        return { status: 200, body: presentOpenAPISpecVersion(spec, version, await versionUrl(version), urls) };
      },
    );

    api.op(
      {
        method: 'get',
        path: `${base}/content`,
        operationId: byId ? 'getOpenAPISpecVersionContentById' : 'getLatestOpenAPISpecVersionContent',
        tags,
        summary: byId ? 'Get the bundled files of a version' : 'Get the bundled files of the newest version',
        description: `Returns the bundled files of ${byId ? 'a version' : 'the newest version'} of a specification, each by its path, the entry document marked, with the URL of its source. Anyone who can view the specification. 409 when the stored bundle is larger than OPENAPI_BUNDLE_MAX_BYTES. Read-only.`,
        params: byId ? versionParams : specParams,
        responses: {
          200: { description: 'content', schema: openAPISpecContentSchema },
          409: { description: 'the stored bundle is larger than OPENAPI_BUNDLE_MAX_BYTES: it is not served' },
        },
      },
      async ({ params, access }) => {
        const spec = await loadSpec(access, params.organizationId, params.specSlug);
        const version = await loadVersion(spec, idOf(spec, params));
        return {
          status: 200,
          body: presentOpenAPISpecContent(
            spec,
            version,
            await readBundle(blobs, version, config.openapi.bundleMaxBytes),
            await versionUrl(version),
            urls,
          ),
        };
      },
    );

    api.op(
      {
        method: 'get',
        path: `/v1/published/openapi/{organizationId}/{specSlug}${byId ? '/versions/{versionId}' : ''}`,
        operationId: byId ? 'getPublishedOpenAPISpecVersion' : 'getPublishedOpenAPISpec',
        tags,
        anonymous: true,
        extension: true,
        summary: byId
          ? 'The entry document of a version of a public specification, for anyone'
          : 'The entry document of the newest version of a public specification, for anyone (its urls.published)',
        description: `Returns the entry OpenAPI document of ${byId ? 'a version' : 'the newest version'} of a public specification, as bundled, to anyone: no token is needed. A private or unknown specification is a 404; 409 when the stored bundle is larger than OPENAPI_BUNDLE_MAX_BYTES. Read-only.`,
        params: byId ? versionParams : specParams,
        responses: {
          200: { description: 'the OpenAPI document, as bundled' },
          409: { description: 'the stored bundle is larger than OPENAPI_BUNDLE_MAX_BYTES: it is not served' },
        },
      },
      async ({ params }) => {
        const spec = await ds.manager.findOneBy(OpenAPISpec, {
          organizationId: params.organizationId,
          slug: params.specSlug,
          visibility: 'public',
        });
        if (!spec) throw notFound(SPEC);
        const version = await loadVersion(spec, idOf(spec, params));
        const files = await readBundle(blobs, version, config.openapi.bundleMaxBytes);
        const entry = Object.values(files).find((f) => f.isEntrypoint);
        return { status: 200, body: entry?.specification ?? {} };
      },
    );
  }
}
