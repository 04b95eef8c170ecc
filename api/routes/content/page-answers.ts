/**
 * Page answers, serialized, remembered by all that decides them: the revision (its content and its
 * variables never change once written), the page, the form asked for (format, evaluated), and where
 * the content is shown (the app path of the space or change request, made of ids). A new head is a
 * new revision, so an answer is never stale. The caller is authorized before an answer is looked
 * up, and nothing of who asked is in it. 16 MiB of JSON, least recently read out.
 */
import { LRUCache } from 'lru-cache';

const BUDGET_BYTES = 16 * 2 ** 20;

export class PageAnswers {
  private readonly answers = new LRUCache<string, Buffer>({
    maxSize: BUDGET_BYTES,
    sizeCalculation: (json) => json.length,
  });

  /** The answer's JSON, made by `present` the first time. */
  async get(
    key: { revisionId: string; appPath: string; pageId: string; format: string; evaluated: boolean },
    present: () => Promise<unknown>,
  ): Promise<Buffer> {
    const name = [key.revisionId, key.appPath, key.pageId, key.format, key.evaluated ? 'evaluated' : 'stored'].join(
      '\u0000',
    );
    const known = this.answers.get(name);
    if (known) return known;
    const json = Buffer.from(JSON.stringify(await present()));
    this.answers.set(name, json);
    return json;
  }
}
