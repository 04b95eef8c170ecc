/** Every recorded history must replay against today's workflow code without nondeterminism. */
import * as fs from 'fs';
import * as path from 'path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';

const ROOT = path.join(__dirname, 'histories');

function histories(): Array<{ workflowId: string; file: string }> {
  return fs.readdirSync(ROOT).flatMap((dir) =>
    fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.json')).map((f) => ({ workflowId: `${dir}/${f}`, file: path.join(ROOT, dir, f) })),
  );
}

describe('workflow replay', () => {
  const all = histories();

  it('has recorded histories to replay', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
  });

  it.each(all.map((h) => [h.workflowId, h.file]))('replays %s', async (_id, file) => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
    await Worker.runReplayHistory({ workflowsPath: require.resolve('../../workflows') }, history);
  }, 60000);
});
