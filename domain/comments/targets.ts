/**
 * What a comment points at inside its content: read from the scope's head when the comment is
 * posted (the page must exist there), and described against the current head when it is shown.
 */
import { In } from 'typeorm';
import type { Comment } from '../../entities/Comment';
import { Revision } from '../../entities/Revision';
import type { Db } from '../../platform/db/transactions';
import { splitSections } from '../content/markdown';
import { PageEntry, PageVersion, pageKey } from '../content/model';
import { ObjectStore } from '../content/objects';
import { ContentReader, PageRecord } from '../content/reader';
import { createInitialRevision } from '../content/revisions';
import { slugOf } from '../content/slugs';
import { getMany } from '../content/trie';
import { badRequest } from '../errors';
import { CommentScope, headRevisionId } from './scope';

export interface TargetInput {
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

export type ResolvedTarget = Pick<
  Comment,
  'revisionId' | 'pageId' | 'pageVersion' | 'nodeId' | 'nodePreview' | 'tableCellRecord' | 'tableCellDefinition'
>;

export const NODE_PREVIEW_MAX = 512;

/**
 * Node ids are the client's; the only nodes our markdown names are headings, by anchor. A node id
 * equal to a heading's anchor gets that heading's text as its preview.
 */
function nodePreview(version: PageVersion, nodeId: string): string | null {
  const section = splitSections(version.title, version.markdown, slugOf).find((s) => s.anchor && s.anchor === nodeId);
  return section ? section.title.slice(0, NODE_PREVIEW_MAX) : null;
}

export async function resolveTarget(
  db: Db,
  scope: CommentScope,
  input: TargetInput,
  userId: string,
): Promise<ResolvedTarget> {
  if (input.page === undefined && input.node !== undefined) throw badRequest('node: requires page');
  if (input.page === undefined && input.tableCell !== undefined) throw badRequest('tableCell: requires page');
  // Spaces get their first revision at creation; one created before that rule gets it now.
  const revisionId = headRevisionId(scope) ?? (await createInitialRevision(db, scope.space, userId)).id;
  const target: ResolvedTarget = {
    revisionId,
    pageId: null,
    pageVersion: null,
    nodeId: null,
    nodePreview: null,
    tableCellRecord: input.tableCell?.record ?? null,
    tableCellDefinition: input.tableCell?.definition ?? null,
  };
  if (input.page === undefined) return target;
  const revision = await db.findOneByOrFail(Revision, { id: revisionId });
  const store = new ObjectStore(db);
  const entry = await new ContentReader(store, revision.root).entry(input.page);
  if (!entry) throw badRequest('page: no such page in this content');
  Object.assign(target, { pageId: input.page, pageVersion: entry.v });
  if (input.node !== undefined)
    Object.assign(target, {
      nodeId: input.node,
      nodePreview: nodePreview(await store.get<PageVersion>(entry.v), input.node),
    });
  return target;
}

/** Entries, versions and paths of several pages of one revision: batched trie and object reads. */
async function readPages(store: ObjectStore, root: string, pageIds: string[]): Promise<Map<string, PageRecord>> {
  const reader = new ContentReader(store, root);
  const found = await getMany<PageEntry>(store, root, pageIds.map(pageKey));
  const versions = await store.getMany<PageVersion>([...found.values()].map((e) => e.v));
  const out = new Map<string, PageRecord>();
  for (const id of pageIds) {
    const entry = found.get(pageKey(id));
    if (entry) out.set(id, { id, entry, version: versions.get(entry.v)!, path: await reader.pathOf(id, entry) });
  }
  return out;
}

export interface PageTarget {
  id: string;
  /** the page as the current head has it, or as the comment's revision had it when the page is gone */
  page: PageRecord | null;
  /** the page changed (or disappeared) in the current head since the comment was posted */
  outdated: boolean;
}

/** The page target of each comment that has one, keyed by comment id; each distinct page is read once. */
export async function describePageTargets(
  db: Db,
  scope: CommentScope,
  comments: Comment[],
): Promise<Map<string, PageTarget>> {
  const onPages = comments.filter((c) => c.pageId !== null);
  const out = new Map<string, PageTarget>();
  if (!onPages.length) return out;
  const store = new ObjectStore(db);
  const headId = headRevisionId(scope);
  const head = headId ? await db.findOneByOrFail(Revision, { id: headId }) : null;
  const current = head
    ? await readPages(store, head.root, [...new Set(onPages.map((c) => c.pageId!))])
    : new Map<string, PageRecord>();

  // Pages gone from the head are shown as the comment's own revision had them.
  const gone = onPages.filter((c) => !current.has(c.pageId!));
  const posted = new Map<string, Map<string, PageRecord>>();
  if (gone.length) {
    const revisions = await db.findBy(Revision, { id: In([...new Set(gone.map((c) => c.revisionId))]) });
    for (const r of revisions)
      posted.set(
        r.id,
        await readPages(store, r.root, [...new Set(gone.filter((c) => c.revisionId === r.id).map((c) => c.pageId!))]),
      );
  }
  for (const c of onPages) {
    const now = current.get(c.pageId!);
    out.set(c.id, {
      id: c.pageId!,
      page: now ?? posted.get(c.revisionId)?.get(c.pageId!) ?? null,
      outdated: !now || now.entry.v !== c.pageVersion,
    });
  }
  return out;
}
