/**
 * Answers, serialized, remembered by all that decides them. Each user of this names what that is, and
 * every part is immutable: a revision (its content and its variables never change once written), ids,
 * and the request's own parameters. A new head is a new revision, so an answer is never stale. The
 * caller is authorized before an answer is looked up, and nothing of who asked is in it. Bounded by the
 * bytes of JSON it holds, least recently read out.
 */
import { LRUCache } from 'lru-cache';
import type { Reply } from './operation';

export class RememberedAnswers {
  private readonly answers: LRUCache<string, Buffer>;

  constructor(budgetBytes: number) {
    this.answers = new LRUCache<string, Buffer>({ maxSize: budgetBytes, sizeCalculation: (json) => json.length });
  }

  /** The 200 answer remembered under `key`, its body made by `present` the first time, sent as its JSON bytes. */
  async reply(key: ReadonlyArray<string | number>, present: () => Promise<unknown>): Promise<Reply> {
    const name = key.join('\u0000');
    let json = this.answers.get(name);
    if (!json) {
      json = Buffer.from(JSON.stringify(await present()));
      this.answers.set(name, json);
    }
    return { status: 200, raw: json, headers: { 'Content-Type': 'application/json; charset=utf-8' } };
  }
}
