/**
 * Decoded content objects read from the database, shared by every ObjectStore of the process. An
 * object never changes (its name is the hash of its bytes), so a cached one is never stale, whatever
 * happens to the revisions or spaces that hold it; without it every page read re-read the same trie
 * nodes. Bounded by the size of the objects' JSON text, least recently read first out. Values are
 * frozen: a reader that tried to change one would throw instead of changing what others read.
 */
import { deepFreeze } from '../freeze';

const BUDGET_BYTES = 16 * 2 ** 20;

export class ObjectCache {
  private readonly entries = new Map<string, { value: unknown; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  /** The object, now the most recently read. */
  get(hash: string): unknown {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return entry.value;
  }

  /** Decodes an object's stored text, keeps it, and returns it (frozen). */
  add(hash: string, text: string): unknown {
    const cached = this.entries.get(hash);
    if (cached) return cached.value;
    const value = deepFreeze(JSON.parse(text));
    this.entries.set(hash, { value, bytes: text.length });
    this.bytes += text.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return value;
  }

  /** Forgets everything (the content benchmark measures cold reads). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

export const sharedObjects = new ObjectCache(BUDGET_BYTES);
