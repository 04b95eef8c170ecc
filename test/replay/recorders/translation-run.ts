/**
 * Runs the translation-run job through its paths, for record.ts (with the `pseudo` provider): a
 * completed run, with a run asked for during it that coalesced into the next one; and a run whose
 * source space was deleted before it began; and a run an operator cancelled (`cli jobs cancel`) as it started; and a
 * run that continues as new between its steps: record with `TRANSLATION_PAGES_PER_STEP=1`, so it has several.
 */
import pino from 'pino';
import { commitToHead } from '../../../domain/content/heads';
import { jobWorkflowId } from '../../../domain/jobs/contracts';
import { JobTicket } from '../../../domain/jobs/job-kind';
import { cancelJobRun } from '../../../domain/jobs/job-operator';
import { applyJobTicket } from '../../../domain/jobs/job-start';
import { lockSpace, softDeleteSpace } from '../../../domain/spaces/deletion';
import { translationRunJob } from '../../../domain/translations/run-job';
import { createTranslation, lockTranslation, requestRun } from '../../../domain/translations/translations';
import { Space } from '../../../entities/Space';
import type { Translation } from '../../../entities/Translation';
import { inTransaction } from '../../../platform/db/transactions';
import { insertSpace } from '../../support/content';
import { heldBack } from '../../support/held-back';
import { continuedCases, continuingGateway, type Recorder } from './recorder';

export const recordTranslationRun: Recorder = async ({ ds, config, temporal, org, admin }) => {
  const logger = pino({ level: 'silent' });
  const dispatch = (ticket: JobTicket<Translation>) => applyJobTicket(temporal, ds.manager, ticket, logger);
  const client = await temporal.getClient();
  const settle = async (id: string, generation: number) => {
    const workflowId = jobWorkflowId(translationRunJob, id, generation);
    await client.workflow
      .getHandle(workflowId)
      .result()
      .catch(() => undefined);
    return workflowId;
  };
  const translate = (space: Space) =>
    inTransaction(heldBack(ds), (db) =>
      createTranslation(db, {
        source: space,
        sourceLanguage: 'en',
        language: 'fr',
        instructions: 'Use a formal tone.',
        createdById: admin.user.id,
      }),
    );

  const space = await insertSpace(ds, org);
  await inTransaction(heldBack(ds), (db) =>
    commitToHead(
      db,
      { kind: 'space', spaceId: space.id },
      { type: 'edits', createdById: admin.user.id, appBaseUrl: config.appBaseUrl },
      async (editor) => {
        const guide = await editor.createPage({
          title: 'Guide',
          markdown: 'Install with `npm install` and read [the docs](https://example.com).\n\n```\nnpm test\n```\n',
        });
        await editor.createPage(
          { title: 'Details', description: 'More', markdown: '| Name | Value |\n|---|---|\n| colour | blue |\n' },
          { parent: guide },
        );
      },
    ),
  );
  const completed = await translate(await ds.manager.findOneByOrFail(Space, { id: space.id }));
  await dispatch(completed);
  // asked for during the first run: one more run follows it
  await dispatch(
    await inTransaction(heldBack(ds), async (db) => requestRun(db, (await lockTranslation(db, completed.row.id))!)),
  );

  const gone = await insertSpace(ds, org);
  const failed = await translate(gone);
  await inTransaction(heldBack(ds), async (db) => softDeleteSpace(db, await lockSpace(db, gone.id)));
  await dispatch(failed);

  const cancelled = await translate(await insertSpace(ds, org));
  await dispatch(cancelled);
  await cancelJobRun({ ds, temporal, logger, config }, cancelled.row.id);

  const bounded = continuingGateway(config);
  const continued = await translate(await ds.manager.findOneByOrFail(Space, { id: space.id }));
  await applyJobTicket(bounded, ds.manager, continued, logger);
  await bounded.close();

  return [
    ...(await continuedCases(temporal, jobWorkflowId(translationRunJob, continued.row.id, 1), continued.row.run.runId)),
    { name: 'cancelled', workflowId: await settle(cancelled.row.id, 1) },
    { name: 'completed', workflowId: await settle(completed.row.id, 1) },
    { name: 'rerun', workflowId: await settle(completed.row.id, 2) },
    { name: 'failed', workflowId: await settle(failed.row.id, 1) },
  ];
};
