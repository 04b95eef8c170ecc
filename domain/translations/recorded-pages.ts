/**
 * What a translation recorded of each source page (`translation_pages`): the content-addressed version of the page
 * whose text the result holds translated ('' for a page written untranslated, so the next run sends it). A run
 * compares these hashes with the source's page entries and reads the text of only the pages whose version moved
 * on, to tell a new text from a changed emoji or visibility. Rows written before versions were recorded hold the
 * SHA-1 of the page's text (`pageTextHash`), which the comparison still accepts.
 */
import { In } from 'typeorm';
import { ContentObject } from '../../entities/ContentObject';
import { TranslationPage } from '../../entities/TranslationPage';
import type { Db } from '../../platform/db/transactions';
import type { PageVersion } from '../content/model';
import { ObjectStore } from '../content/objects';
import { pageTextHash } from './page-text';

const ROWS_PER_STATEMENT = 500;

/** Each recorded page's version, by page id. */
export async function recordedVersions(db: Db, translationId: string): Promise<Map<string, string>> {
  // raw rows: one per page of the space, not worth hydrating as entities
  const rows: Array<{ pageId: string; sourceHash: string }> = await db
    .createQueryBuilder(TranslationPage, 'tp')
    .select(['tp.pageId AS pageId', 'tp.sourceHash AS sourceHash'])
    .where('tp.translationId = :translationId', { translationId })
    .getRawMany();
  return new Map(rows.map((r) => [r.pageId, r.sourceHash]));
}

/**
 * Of pages whose current version differs from the recorded one, those whose text is the same (only emoji,
 * visibility or dates changed). Reads their versions, a batch at a time, each batch in a store of its own.
 */
export async function sameText(
  db: Db,
  pages: Array<{ id: string; version: string; recorded: string }>,
  batch: number,
): Promise<Set<string>> {
  const same = new Set<string>();
  for (let i = 0; i < pages.length; i += batch) {
    const chunk = pages.slice(i, i + batch);
    const store = new ObjectStore(db);
    const current = await store.getMany<PageVersion>(chunk.map((p) => p.version));
    // a recorded text hash (older rows) names no stored object
    const stored = await db.find(ContentObject, {
      select: { hash: true },
      where: { hash: In(chunk.map((p) => p.recorded)) },
    });
    const earlier = await store.getMany<PageVersion>(stored.map((o) => o.hash));
    for (const { id, version, recorded } of chunk) {
      const text = pageTextHash(current.get(version)!);
      const before = earlier.get(recorded);
      if (text === recorded || (before && pageTextHash(before) === text)) same.add(id);
    }
  }
  return same;
}

/** Records the pages' versions; returns how many pages with a version were not recorded before. */
export async function recordPages(
  db: Db,
  translationId: string,
  rows: Array<{ pageId: string; sourceHash: string }>,
): Promise<number> {
  let added = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const known = new Set(
      (
        await db.find(TranslationPage, {
          where: { translationId, pageId: In(chunk.map((r) => r.pageId)) },
          select: { pageId: true },
        })
      ).map((r) => r.pageId),
    );
    added += chunk.filter((r) => r.sourceHash && !known.has(r.pageId)).length;
    await db
      .createQueryBuilder()
      .insert()
      .into(TranslationPage)
      .values(chunk.map((r) => ({ translationId, ...r })))
      .orUpdate(['sourceHash'], ['translationId', 'pageId'])
      .execute();
  }
  return added;
}
