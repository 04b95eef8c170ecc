/**
 * Answers, serialized, remembered by all that decides them. Each user of this names what that is, and
 * every part is immutable: a revision (its content and its variables never change once written), ids,
 * and the request's own parameters. A new head is a new revision, so an answer is never stale. The
 * caller is authorized before an answer is looked up, and nothing of who asked is in it. Bounded by the
 * bytes of JSON it holds, least recently read out. Each is written to the wire by the schema the remembered
 * answers are made with, the operation's response schema, since the bytes skip `api.op()`'s own step.
 * An answer with an ETag keeps it beside its bytes: made from the same reads, it is as immutable as they are.
 */
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import type { ZodTypeAny } from 'zod';
import { Presented, toWire } from '../platform/wire/to-wire';
import { notModified } from './middleware/conditional';
import type { Reply } from './operation';

interface Remembered {
  /** the answer's JSON text, as sent */
  json: string;
  /** its size in bytes, for the budget */
  bytes: number;
  etag?: string;
}

export class RememberedAnswers<S extends ZodTypeAny> {
  private readonly answers: LRUCache<string, Remembered>;

  constructor(
    private readonly schema: S,
    budgetBytes: number,
  ) {
    this.answers = new LRUCache<string, Remembered>({
      maxSize: budgetBytes,
      sizeCalculation: (a) => a.bytes + (a.etag?.length ?? 0),
    });
  }

  /** The 200 answer remembered under `key`, its body made by `present` the first time, sent as its JSON text. */
  async reply(key: ReadonlyArray<string | number>, present: () => Promise<Presented<S>>): Promise<Reply> {
    const { json } = await this.remembered(key, async () => ({ body: await present() }));
    return { status: 200, json };
  }

  /** The same for an answer with an ETag (`present` makes both): 304 without a body when `If-None-Match` holds it. */
  async replyTagged(
    req: Request,
    key: ReadonlyArray<string | number>,
    present: () => Promise<{ body: Presented<S>; etag: string }>,
  ): Promise<Reply> {
    const { json, etag } = await this.remembered(key, present);
    const headers = { ETag: etag! };
    if (notModified(req, etag!)) return { status: 304, headers };
    return { status: 200, json, headers };
  }

  private async remembered(
    key: ReadonlyArray<string | number>,
    present: () => Promise<{ body: Presented<S>; etag?: string }>,
  ): Promise<Remembered> {
    const name = key.join('\u0000');
    let answer = this.answers.get(name);
    if (!answer) {
      const { body, etag } = await present();
      const json = JSON.stringify(toWire(this.schema, body));
      answer = { json, bytes: Buffer.byteLength(json), ...(etag ? { etag } : {}) };
      this.answers.set(name, answer);
    }
    return answer;
  }
}
