/**
 * Every committed history must replay against today's workflow code without nondeterminism. The
 * workflows are bundled once for all of them.
 */

import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, Worker, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import * as fs from 'fs';
import * as path from 'path';
import { RECORDERS } from './recorders';

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

  it('has, for every recorder, each of its cases in its latest release, and no folder without a recorder', () => {
    // what must be recorded is derived from the recorders (one per job kind, one per Schedule)
    expect(fs.readdirSync(ROOT).sort()).toEqual(Object.keys(RECORDERS).sort());
    for (const [folder, entry] of Object.entries(RECORDERS)) {
      const files = fs.readdirSync(path.join(ROOT, folder)).filter((f) => f.endsWith('.json'));
      const latest = Math.max(...files.map((f) => Number(/^v(\d+)-/.exec(f)?.[1] ?? 0)));
      expect({ folder, files: files.filter((f) => f.startsWith(`v${latest}-`)).sort() }).toEqual({
        folder,
        files: entry.cases.map((name) => `v${latest}-${name}.json`).sort(),
      });
    }
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
