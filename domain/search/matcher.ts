/**
 * Turns user search text into a condition and a score over search sections. Words the full-text
 * index holds are matched with MATCH ... AGAINST in natural language mode, and the last one also as a prefix; a query with none of
 * them (only words shorter than the index's minimum token size, or stop-words) falls back to a
 * case-insensitive LIKE on the whole phrase, so "go" or "to be" still find something.
 */
import type { Db } from '../../platform/db/transactions';
import { containsPattern } from '../like';
import { countHits, firstHit, HitMode } from './hits';

/** What the server's full-text index leaves out; fixed by server configuration, so read once. */
interface FulltextSettings {
  minTokenSize: number;
  stopwords: Set<string>;
}

let settings: Promise<FulltextSettings> | null = null;

async function readSettings(db: Db): Promise<FulltextSettings> {
  const [row] = await db.query(
    'SELECT @@innodb_ft_min_token_size AS minTokenSize, @@innodb_ft_enable_stopword AS enabled, @@innodb_ft_server_stopword_table AS custom',
  );
  // A custom stop-word table is not read: its words are then treated as indexed, and such queries find nothing.
  const words: Array<{ value: string }> =
    Number(row.enabled) && !row.custom
      ? await db.query('SELECT value FROM INFORMATION_SCHEMA.INNODB_FT_DEFAULT_STOPWORD')
      : [];
  return { minTokenSize: Number(row.minTokenSize), stopwords: new Set(words.map((w) => w.value.toLowerCase())) };
}

function fulltextSettings(db: Db): Promise<FulltextSettings> {
  settings ??= readSettings(db).catch((e) => {
    settings = null;
    throw e;
  });
  return settings;
}

/** Word characters as InnoDB's full-text parser sees them. */
const WORD = /[\p{L}\p{N}_]+/gu;
const CONTROL = /[\p{Cc}\p{Cf}]+/gu;

export interface SectionMatch {
  /** SQL condition on the sections alias `ss` */
  condition: string;
  /** SQL score of one section (higher is better) */
  score: string;
  params: Record<string, string>;
  /** Where a body's first match starts (-1: none), for its excerpt. */
  locate(body: string): number;
  /** Scores one section in the application, like `score` (0: no match): title hits weigh double. */
  rank(title: string, body: string): number;
}

/** Scores and locates by hits of `words` (lower case, distinct, found as `mode` says) and of a `prefix` word. */
function hitsOf(words: string[], mode: HitMode, prefix?: string): Pick<SectionMatch, 'rank' | 'locate'> {
  const distinct = [...new Set(words)].filter((w) => w !== prefix);
  const prefixes = prefix ? [prefix] : [];
  const count = (text: string) => countHits(text, distinct, mode) + countHits(text, prefixes, 'prefix');
  return {
    rank: (title, body) => 2 * count(title) + count(body),
    locate: (body) => {
      const hits = [firstHit(body, distinct, mode), firstHit(body, prefixes, 'prefix')].filter((i) => i >= 0);
      return hits.length ? Math.min(...hits) : -1;
    },
  };
}

/** The full-text condition of a query whose last word is also a prefix (the benchmark's full-text floor runs it too). */
export const BOOLEAN_MATCH = 'MATCH(ss.title, ss.body) AGAINST (:searchText IN BOOLEAN MODE)';

export async function sectionMatch(db: Db, query: string): Promise<SectionMatch> {
  const text = query.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  const words = text.match(WORD) ?? [];
  const { minTokenSize, stopwords } = await fulltextSettings(db);
  const isIndexed = (w: string) => [...w].length >= minTokenSize && !stopwords.has(w.toLowerCase());
  const indexed = words.filter(isIndexed);
  // the last word matches as a prefix too, as users type it ("instal" finds "installation"): where the index holds
  // words that long, through boolean mode's truncation operator, in the one MATCH the index answers (boolean mode
  // without operators ranks as natural language mode does: any word may match, more hits score higher)
  const last = words.at(-1);
  const prefix = last && isIndexed(last) ? last.toLowerCase() : undefined;
  if (indexed.length) {
    // Only words reach MATCH: natural language mode would still read double quotes as a phrase.
    const against = prefix ? BOOLEAN_MATCH : 'MATCH(ss.title, ss.body) AGAINST (:searchText IN NATURAL LANGUAGE MODE)';
    const searchText = prefix ? [...indexed.slice(0, -1), `${prefix}*`].join(' ') : words.join(' ');
    return {
      condition: against,
      score: against,
      params: { searchText },
      ...hitsOf(
        indexed.map((w) => w.toLowerCase()),
        'word',
        prefix,
      ),
    };
  }
  return {
    condition: text ? '(LOWER(ss.title) LIKE :searchPattern OR LOWER(ss.body) LIKE :searchPattern)' : '1 = 0',
    // a hit in the title weighs more than one in the body
    score: '((LOWER(ss.title) LIKE :searchPattern) * 2 + (LOWER(ss.body) LIKE :searchPattern))',
    params: { searchPattern: containsPattern(text) },
    ...hitsOf(text ? [text.toLowerCase()] : [], 'anywhere'),
  };
}
