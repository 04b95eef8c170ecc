/**
 * What a revision's semantic changes cost (docs/benchmarks.md): in its own database (docs_bench_changes, wiped at
 * start), a space built through the domain to 1,000 then 10,000 pages, and at each size the changes of one-page
 * commits (a page's markdown rewritten) computed cold, with the process's content object cache emptied. Their cost
 * should follow the one changed page, not the size of the space. Writes bench/results/revision-changes-<date>.json.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'fs';
import * as path from 'path';
import { semanticChanges } from '../domain/content/changes';
import { commitToHead, Head } from '../domain/content/heads';
import { sharedObjects } from '../domain/content/object-cache';
import { ObjectStore } from '../domain/content/objects';
import { newId } from '../domain/ids';
import { Revision } from '../entities/Revision';
import { Space } from '../entities/Space';
import { inTransaction } from '../platform/db/transactions';
import { Random, writePage } from './corpus';
import { resetBenchDatabase } from './database';
import { benchOwner } from './owner';
import { Summary, summarize, timed } from './stats';

const SIZES = [1_000, 10_000];
const PAGES_PER_COMMIT = 500;
const TOP_LEVEL = 20;
const SAMPLES = 30;

const log = (message: string) => console.log(`[changes] ${message}`);

async function main(): Promise<void> {
  const { ds, config, work } = await resetBenchDatabase('docs_bench_changes', log);
  const { user, space } = await benchOwner(ds, 'Benchmark', 'Ten thousand pages');
  const head: Head = { kind: 'space', spaceId: space.id };
  const rnd = new Random(20240502);
  const links = { pageIds: [] as string[], paths: [] as string[] };
  const commit = (edit: Parameters<typeof commitToHead>[3]) =>
    inTransaction(work, (db) =>
      commitToHead(db, head, { type: 'edits', createdById: user.id, appBaseUrl: config.appBaseUrl }, edit),
    );
  const headRevision = async () => {
    const { revisionId } = await ds.manager.findOneByOrFail(Space, { id: space.id });
    return ds.manager.findOneByOrFail(Revision, { id: revisionId! });
  };

  const pageIds: string[] = [];
  const results: Record<string, { timeMs: Summary; changes: number }> = {};
  for (const size of SIZES) {
    while (pageIds.length < size) {
      const batch = Array.from({ length: Math.min(PAGES_PER_COMMIT, size - pageIds.length) }, () => newId());
      await commit(async (editor) => {
        for (const id of batch) {
          // 20 top-level pages, every other page under one of them
          const parent = pageIds.length < TOP_LEVEL ? undefined : pageIds[rnd.int(TOP_LEVEL)];
          await editor.createPage(writePage(rnd, links), { parent }, id);
          pageIds.push(id);
        }
      });
      log(`${pageIds.length} pages`);
    }
    const times: number[] = [];
    let changes = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const pageId = pageIds[rnd.int(pageIds.length)];
      await commit((editor) => editor.updatePage(pageId, { markdown: writePage(rnd, links).markdown }));
      const after = await headRevision();
      const before = await ds.manager.findOneByOrFail(Revision, { id: after.parents[0] });
      sharedObjects.clear();
      const { ms, result } = await timed(() => semanticChanges(new ObjectStore(ds.manager), before, after, 10));
      times.push(ms);
      changes = result.changes.length + result.more;
    }
    results[`${size}`] = { timeMs: summarize(times), changes };
    log(`one-page commit's changes at ${size} pages, cold: median ${results[`${size}`].timeMs.median} ms`);
  }

  const dir = path.join(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `revision-changes-${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify({ samples: SAMPLES, results }, null, 2)}\n`);
  log(`wrote ${file}`);
  await ds.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
