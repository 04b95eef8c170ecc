/**
 * Every committed history must replay against today's workflow code without nondeterminism. The
 * workflows are bundled once for all of them.
 */

import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, Worker, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, 'histories');

function histories(): Array<{ name: string; file: string }> {
  return fs.readdirSync(ROOT).flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ name: `${dir}/${f}`, file: path.join(ROOT, dir, f) })),
  );
}

describe('workflow replay', () => {
  const all = histories();
  let bundle: WorkflowBundleWithSourceMap;

  beforeAll(async () => {
    bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });
  }, 120000);

  it('has histories of every release of every workflow, success and failure paths included', () => {
    const names = all.map((h) => h.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'space-purge/v1-purged.json',
        'space-purge/v1-cancelled.json',
        'space-purge/v2-purged.json',
        'space-purge/v2-failed.json',
        'space-purge/v3-purged.json',
        'space-purge/v4-purged.json',
        'space-purge/v4-cancelled.json',
        'space-purge/v4-superseded.json',
        'space-purge/v4-failed.json',
        'openapi-process/v2-complete.json',
        'openapi-process/v2-parse-error.json',
        'openapi-process/v2-fetch-timeout.json',
        'openapi-process/v2-fetch-error.json',
        'openapi-process/v3-complete.json',
        'openapi-process/v3-superseded.json',
        'openapi-process/v3-cancelled.json',
        'openapi-process/v3-parse-error.json',
        'pdf-export/v1-rendered.json',
        'pdf-export/v1-failed.json',
        'translation-run/v1-completed.json',
        'translation-run/v1-rerun.json',
        'translation-run/v1-failed.json',
        'content-import/v1-imported.json',
        'content-import/v1-fetch-error.json',
        'content-import/v1-parse-error.json',
        'content-import/v1-cancelled.json',
        'content-import/v2-imported.json',
        'content-import/v2-cancelled.json',
        'integration-dispatch/v1-delivered.json',
        'integration-dispatch/v1-rejected.json',
        'integration-dispatch/v1-exhausted.json',
        'integration-dispatch/v2-cancelled.json',
      ]),
    );
  });

  it.each(all.map((h) => [h.name, h.file]))(
    'replays %s',
    async (_name, file) => {
      const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
      await Worker.runReplayHistory({ workflowBundle: bundle }, history);
    },
    60000,
  );
});
