/**
 * Translations of an organization's spaces (GitBook's 6 operations). A translation is seen by whoever
 * sees its source space and managed by the source space's admins. Creating one and POST run ask for
 * the translation-run job in the request's transaction and start it after the commit; every answer
 * is read from the rows, never from Temporal.
 */
import { In } from 'typeorm';
import { authorize, permissionsOf, viewableContent } from '../../../domain/access/authorize';
import { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { translationsOfOrganizationQuery } from '../../../domain/translations/queries';
import { removeRunBlobs } from '../../../domain/translations/run-blobs';
import {
  createTranslation,
  deleteTranslation,
  lockTranslation,
  requestRun,
  setInstructions,
} from '../../../domain/translations/translations';
import { Space } from '../../../entities/Space';
import { Translation } from '../../../entities/Translation';
import { inTransaction } from '../../../platform/db/transactions';
import { loadVisibleOrganization } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { presentTranslation, translationSchema } from '../../presenters/translation';
import { Urls } from '../../presenters/urls';
import { organizationIdParams } from '../orgs/schema';
import { createTranslationBody, listTranslationsQuery, translationParams, updateTranslationBody } from './schema';

export function translationRoutes(api: ApiBuilder): void {
  const { ds, config, logger, blobs } = api.deps;
  const urls = new Urls(config);
  const tags = ['translations'];

  /** The translation and its live source space, within a visible organization; locked on request. */
  async function findTranslation(
    access: AccessContext,
    organizationId: string,
    translationId: string,
    lock: boolean,
  ): Promise<{ translation: Translation; space: Space } | null> {
    await loadVisibleOrganization(access, organizationId);
    const translation = lock
      ? await lockTranslation(access.db, translationId)
      : await access.db.findOneBy(Translation, { id: translationId });
    if (!translation || translation.organizationId !== organizationId) return null;
    const space = await access.db.findOneBy(Space, { id: translation.sourceSpaceId });
    return space && !space.deletedAt ? { translation, space } : null;
  }

  /** As findTranslation, and `action` on it: 404 when the caller does not see it, 403 without `action`. */
  async function authorizedTranslation(
    access: AccessContext,
    organizationId: string,
    translationId: string,
    action: 'view' | 'edit',
    lock = false,
  ) {
    const found = await findTranslation(access, organizationId, translationId, lock);
    if (!found) throw notFound('translation');
    await authorize(access, { kind: 'translation', space: found.space }, action, 'translation');
    return found;
  }

  const present = async (access: AccessContext, translation: Translation, space: Space) =>
    presentTranslation(translation, await permissionsOf(access, { kind: 'translation', space }), urls);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/translations',
      operationId: 'listTranslations',
      tags,
      summary: 'List the translations whose source space the caller can see, newest first',
      description:
        "Lists the organization's translations whose source space the caller can see, newest first and paginated. Any caller who can see the organization. Read-only.",
      params: organizationIdParams,
      query: listTranslationsQuery,
      responses: { 200: { description: 'translations', schema: listSchema(translationSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const organization = await loadVisibleOrganization(access, params.organizationId);
      const page = await paginate(
        translationsOfOrganizationQuery(ds.manager, organization.id, await viewableContent(access, organization.id)),
        [
          { column: 't.createdAt', direction: 'DESC', value: (t) => t.createdAt },
          { column: 't.id', direction: 'DESC', value: (t) => t.id },
        ],
        { limit: query.limit, page: query.page, scope: `translations:${organization.id}:${caller.userId}` },
        config.cursorSecret,
      );
      const spaces = new Map(
        (await ds.manager.findBy(Space, { id: In(page.items.map((t) => t.sourceSpaceId)) })).map((s) => [s.id, s]),
      );
      const items = [];
      for (const translation of page.items)
        items.push(await present(access, translation, spaces.get(translation.sourceSpaceId)!));
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/translations',
      operationId: 'createTranslation',
      tags,
      summary:
        'Translate a space into another language: needs admin on the source space; the first run starts at once and creates the result space next to the source',
      description:
        "Creates a translation of one of the organization's spaces into `language` and starts its first run: a `translation-run` job that creates the result space next to the source and writes the translated content there as one revision. Needs `admin` on the source space (a user's token). Follow the run with `status`, or with `node dist/cli/main.js jobs watch <translationId>`.",
      params: organizationIdParams,
      body: createTranslationBody,
      responses: { 201: { description: 'created, its first run pending', schema: translationSchema } },
    },
    async ({ params, body, caller }) => {
      const { ticket, source } = await inTransaction(api.deps, async (db) => {
        const access = AccessContext.forCaller(db, caller);
        await loadVisibleOrganization(access, params.organizationId);
        const source = await db.findOneBy(Space, { id: body.source.space, organizationId: params.organizationId });
        if (!source || source.deletedAt) throw notFound('space');
        await authorize(access, { kind: 'translation', space: source }, 'edit', 'space');
        const ticket = await createTranslation(db, {
          source,
          sourceLanguage: body.source.language,
          language: body.language,
          instructions: body.instructions ?? '',
          createdById: caller.userId,
        });
        return { ticket, source };
      });
      const answer = await present(AccessContext.forCaller(ds.manager, caller), ticket.row, source);
      return { status: 201, headers: { Location: answer.urls.location }, body: answer };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/translations/{translationId}',
      operationId: 'getTranslation',
      tags,
      summary: 'Get a translation: its status, result and stats',
      description:
        'Returns a translation: the status of its run, its result space and revision, and its statistics. Anyone who can view its source space; others get a 404. Read-only.',
      params: translationParams,
      responses: { 200: { description: 'translation', schema: translationSchema } },
    },
    async ({ params, access }) => {
      const { translation, space } = await authorizedTranslation(
        access,
        params.organizationId,
        params.translationId,
        'view',
      );
      return { status: 200, body: await present(access, translation, space) };
    },
  );

  api.op(
    {
      method: 'put',
      path: '/v1/orgs/{organizationId}/translations/{translationId}',
      operationId: 'updateTranslation',
      tags,
      summary:
        'Replace the instructions of a translation (used by the next runs; pages already translated are not sent again for it)',
      description:
        "Replaces the translator's instructions for the next runs; pages already translated are not translated again because of it. Needs `admin` on the source space (a user's token). Starts no run.",
      params: translationParams,
      body: updateTranslationBody,
      responses: { 200: { description: 'translation', schema: translationSchema } },
    },
    async ({ params, body, caller }) => {
      const { translation, space } = await inTransaction(ds, async (db) => {
        const found = await authorizedTranslation(
          AccessContext.forCaller(db, caller),
          params.organizationId,
          params.translationId,
          'edit',
          true,
        );
        await setInstructions(db, found.translation, body.instructions);
        return found;
      });
      return { status: 200, body: await present(AccessContext.forCaller(ds.manager, caller), translation, space) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/translations/{translationId}',
      operationId: 'deleteTranslation',
      tags,
      summary:
        'Delete a translation, stopping its run; the result space stays as an ordinary space (204 also when there was no such translation)',
      description:
        "Deletes the translation and withdraws its `translation-run` job if a run is under way; the result space stays, as an ordinary space. Needs `admin` on the source space (a user's token). Answers 204 also when there is no such translation or the caller cannot see it.",
      params: translationParams,
      responses: { 204: { description: 'deleted, or did not exist' } },
    },
    async ({ params, caller }) => {
      const deleted = await inTransaction(api.deps, async (db) => {
        const access = AccessContext.forCaller(db, caller);
        const found = await findTranslation(access, params.organizationId, params.translationId, true);
        if (!found || !(await permissionsOf(access, { kind: 'translation', space: found.space })).view) return null;
        await authorize(access, { kind: 'translation', space: found.space }, 'edit');
        return deleteTranslation(db, found.translation);
      });
      if (deleted && deleted.stagedGeneration !== null) {
        await removeRunBlobs(blobs, params.translationId, deleted.stagedGeneration).catch((err) =>
          logger.warn({ err }, 'blobs of a deleted translation not removed'),
        );
      }
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/translations/{translationId}/run',
      operationId: 'runTranslation',
      tags,
      summary:
        'Run a translation again: only pages changed since the last run are sent; during a run, exactly one more run follows it',
      description:
        "Asks for another run of the `translation-run` job: only pages changed since the last run are sent to the provider, and a request made during a run is served by exactly one run after it. Needs `admin` on the source space (a user's token). Follow it with `status`, or with `node dist/cli/main.js jobs watch <translationId>`.",
      params: translationParams,
      responses: { 204: { description: 'run triggered' } },
    },
    async ({ params, caller }) => {
      await inTransaction(api.deps, async (db) => {
        const { translation } = await authorizedTranslation(
          AccessContext.forCaller(db, caller),
          params.organizationId,
          params.translationId,
          'edit',
          true,
        );
        await requestRun(db, translation);
      });
      return { status: 204 };
    },
  );
}
