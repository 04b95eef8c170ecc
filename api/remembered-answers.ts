/**
 * Answers, serialized, remembered by all that decides them. Each user of this names what that is, and
 * every part is immutable: a revision (its content and its variables never change once written), ids,
 * and the request's own parameters. A new head is a new revision, so an answer is never stale. The
 * caller is authorized before an answer is looked up, and nothing of who asked is in it. Bounded by the
 * bytes of JSON it holds, least recently read out. Each is written to the wire by the schema the remembered
 * answers are made with, the operation's response schema, since the bytes skip `api.op()`'s own step.
 */
import { LRUCache } from 'lru-cache';
import type { ZodTypeAny } from 'zod';
import { Presented, toWire } from '../platform/wire/to-wire';
import type { Reply } from './operation';

export class RememberedAnswers<S extends ZodTypeAny> {
  private readonly answers: LRUCache<string, string>;

  constructor(
    private readonly schema: S,
    budgetBytes: number,
  ) {
    this.answers = new LRUCache<string, string>({
      maxSize: budgetBytes,
      sizeCalculation: (json) => Buffer.byteLength(json),
    });
  }

  /** The 200 answer remembered under `key`, its body made by `present` the first time, sent as its JSON text. */
  async reply(key: ReadonlyArray<string | number>, present: () => Promise<Presented<S>>): Promise<Reply> {
    const name = key.join('\u0000');
    let json = this.answers.get(name);
    if (!json) {
      json = JSON.stringify(toWire(this.schema, await present()));
      this.answers.set(name, json);
    }
    return { status: 200, json };
  }
}
