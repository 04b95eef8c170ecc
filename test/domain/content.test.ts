/** The content core on the real database: trie, editor, reader and three-way merge. */
import { ContentEditor } from '../../domain/content/editor';
import { mergeChildList, mergeContent } from '../../domain/content/merge';
import { ObjectStore } from '../../domain/content/objects';
import { ContentReader } from '../../domain/content/reader';
import { diff, emptyTrie, entries, getMany, update } from '../../domain/content/trie';
import { SearchPage } from '../../entities/SearchPage';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();

const store = () => new ObjectStore(server.ds.manager);

async function edit(s: ObjectStore, root: string, fn: (e: ContentEditor) => Promise<unknown>): Promise<string> {
  const e = new ContentEditor(s, root);
  await fn(e);
  const next = await e.finish();
  await s.flush();
  return next;
}

describe('hash trie', () => {
  it('stores, finds, lists and diffs thousands of keys, rewriting only touched nodes', async () => {
    const s = store();
    const changes = new Map<string, number | undefined>();
    for (let i = 0; i < 3000; i++) changes.set(`k${i}`, i);
    const root = await update(s, emptyTrie(s), changes);
    await s.flush();
    const fresh = store();
    expect([...(await getMany<number>(fresh, root, ['k0', 'k2999', 'missing'])).entries()]).toEqual([
      ['k0', 0],
      ['k2999', 2999],
    ]);
    expect((await entries(fresh, root)).size).toBe(3000);
    const s2 = store();
    const next = await update(
      s2,
      root,
      new Map([
        ['k5', 55],
        ['k6', undefined],
        ['new', 1],
      ]),
    );
    // biome-ignore lint/complexity/useLiteralKeys: bracket access is how a test reads the private field
    expect(s2['pending'].size).toBeLessThanOrEqual(4); // the touched leaves and their branch, nothing else
    await s2.flush();
    const d = await diff<number>(store(), root, next);
    expect(d.sort()).toEqual(
      [
        ['k5', 5, 55],
        ['k6', 6, undefined],
        ['new', undefined, 1],
      ].sort(),
    );
  });
});

describe('editor and reader', () => {
  it('resolves many paths reading each level once, the first page of a slug winning', async () => {
    const s = store();
    const ids: string[] = [];
    const root = await edit(s, emptyTrie(s), async (e) => {
      for (let i = 0; i < 50; i++) ids.push(await e.createPage({ title: `Topic ${i}` }));
      ids.push(await e.createPage({ title: 'Setup' }, { parent: ids[0] }));
    });
    const reader = new ContentReader(store(), root);
    const levels = jest.spyOn(reader, 'childIds');
    for (let i = 0; i < 50; i++) expect(await reader.pageIdByPath(`topic-${i}`)).toBe(ids[i]);
    expect(await reader.pageIdByPath('topic-0/setup')).toBe(ids[50]);
    expect(await reader.pageIdByPath('topic-1/setup')).toBeUndefined();
    expect(await reader.pageIdByPath('nothing')).toBeUndefined();
    // the root level, topic-0's and topic-1's children: once each, however many paths went through them
    expect(levels).toHaveBeenCalledTimes(3);
  });

  it('creates nested pages with unique slugs and paths, moves and deletes subtrees', async () => {
    const s = store();
    let rootId = '';
    let childId = '';
    const r1 = await edit(s, emptyTrie(s), async (e) => {
      rootId = await e.createPage({ title: 'Getting Started', markdown: '# Hi' });
      await e.createPage({ title: 'Getting started' });
      childId = await e.createPage({ title: 'Install' }, { parent: rootId });
    });
    const reader = new ContentReader(store(), r1);
    const tree = await reader.tree();
    expect(tree.map((p) => p.path)).toEqual(['getting-started', 'getting-started-2']);
    expect(tree[0].children.map((p) => p.path)).toEqual(['getting-started/install']);
    expect((await reader.page(childId))?.path).toBe('getting-started/install');
    expect(await reader.pageIdByPath('getting-started/install')).toBe(childId);

    const r2 = await edit(s, r1, (e) => e.movePage(childId, { parent: null, index: 0 }));
    expect((await new ContentReader(store(), r2).tree()).map((p) => p.path)).toEqual([
      'install',
      'getting-started',
      'getting-started-2',
    ]);
    await expect(edit(s, r1, (e) => e.movePage(rootId, { parent: childId }))).rejects.toMatchObject({ status: 409 });

    const r3 = await edit(s, r1, (e) => e.deletePage(rootId));
    const after = new ContentReader(store(), r3);
    expect((await after.tree()).map((p) => p.path)).toEqual(['getting-started-2']);
    expect(await after.page(childId)).toBeUndefined();
  });
});

describe('three-way merge', () => {
  async function base() {
    const s = store();
    const ids: Record<string, string> = {};
    const root = await edit(s, emptyTrie(s), async (e) => {
      ids.a = await e.createPage({ title: 'A', markdown: 'one\ntwo\nthree\nfour\nfive' });
      ids.b = await e.createPage({ title: 'B', markdown: 'bee' });
      ids.c = await e.createPage({ title: 'C', markdown: 'sea' }, { parent: ids.b });
    });
    return { s, root, ids };
  }

  it('merges changes to different pages and line edits to the same page', async () => {
    const { s, root, ids } = await base();
    const ours = await edit(s, root, async (e) => {
      await e.updatePage(ids.a, { markdown: 'ONE\ntwo\nthree\nfour\nfive' });
      await e.createPage({ title: 'D' });
    });
    const theirs = await edit(s, root, async (e) => {
      await e.updatePage(ids.a, { markdown: 'one\ntwo\nthree\nfour\nFIVE' });
      await e.updatePage(ids.b, { title: 'Bee' });
    });
    const ms = store();
    const merged = await mergeContent(ms, root, ours, theirs);
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    await ms.flush();
    const reader = new ContentReader(store(), merged.root);
    expect((await reader.page(ids.a))?.version.markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE');
    expect((await reader.tree()).map((p) => p.entry.title)).toEqual(['A', 'Bee', 'D']);
    expect((await reader.page(ids.c))?.path).toBe('bee/c');
  });

  it('reports a true conflict, an edit against a delete, and merges a move against an edit', async () => {
    const { s, root, ids } = await base();
    const ours = await edit(s, root, (e) => e.updatePage(ids.a, { markdown: 'one\nTWO\nthree\nfour\nfive' }));
    const theirs = await edit(s, root, (e) => e.updatePage(ids.a, { markdown: 'one\n2\nthree\nfour\nfive' }));
    expect(await mergeContent(store(), root, ours, theirs)).toEqual({
      ok: false,
      conflicts: [{ page: ids.a, title: 'A', reason: 'the same lines were edited on both sides' }],
    });

    const deleted = await edit(s, root, (e) => e.deletePage(ids.b));
    const edited = await edit(s, root, (e) => e.updatePage(ids.c, { markdown: 'changed' }));
    const r = await mergeContent(store(), root, deleted, edited);
    expect(r.ok).toBe(false);

    const moved = await edit(s, root, (e) => e.movePage(ids.c, { parent: null }));
    const changed = await edit(s, root, (e) => e.updatePage(ids.c, { markdown: 'new sea' }));
    const ms = store();
    const m = await mergeContent(ms, root, moved, changed);
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    await ms.flush();
    const page = await new ContentReader(store(), m.root).page(ids.c);
    expect(page?.path).toBe('c');
    expect(page?.version.markdown).toBe('new sea');
  });

  it('merges child lists keeping both sides additions in order', () => {
    expect(mergeChildList(['a', 'b', 'c'], ['a', 'x', 'b', 'c'], ['a', 'c', 'y'])).toEqual(['a', 'x', 'c', 'y']);
  });
});

describe('the search index a commit writes', () => {
  it('waits on no other space: new pages are indexed while the next space in the index has an uncommitted write', async () => {
    const { org, admin } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    // a space id that sorts right after this one's rows in search_pages' primary key
    const next = `${space.id}0`;
    const other = server.ds.createQueryRunner();
    await other.startTransaction();
    try {
      await other.manager.insert(SearchPage, { spaceId: next, pageId: 'p', title: 'Other', body: 'Other.' });
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'waited'>((resolve) => {
        timer = setTimeout(() => resolve('waited'), 5000);
      });
      // many pages, as an import commits: a long list of keys can make MariaDB scan rather than seek
      const written = writeHead(server, { kind: 'space', spaceId: space.id }, admin.user.id, async (editor) => {
        for (let i = 0; i < 30; i++) await editor.createPage({ title: `New ${i}`, markdown: 'Text.' }, {});
      }).then(() => 'written' as const);
      await expect(Promise.race([written, waited]).finally(() => clearTimeout(timer))).resolves.toBe('written');
    } finally {
      await other.rollbackTransaction();
      await other.release();
    }
  });
});
