/**
 * Counts a query's hits in a text by plain string search. A regular expression made for each query
 * cost a search with a new query 0.9 ms for 200 sections, since V8 interprets a new expression before
 * it compiles it; `indexOf` costs what a compiled one does (30 µs) for any query.
 */

/** Word characters as InnoDB's full-text parser sees them (the same class as the matcher's WORD). */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(codePoint: number): boolean {
  if (codePoint < 128) return (codePoint >= 48 && codePoint <= 57) || (codePoint >= 65 && codePoint <= 90) || (codePoint >= 97 && codePoint <= 122) || codePoint === 95;
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}

/** Whether the character that ends just before `index` is a word character (a surrogate pair read whole). */
function wordCharBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const unit = text.charCodeAt(index - 1);
  const start = unit >= 0xdc00 && unit <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return isWordChar(text.codePointAt(start)!);
}

function wordCharAt(text: string, index: number): boolean {
  return index < text.length && isWordChar(text.codePointAt(index)!);
}

/**
 * Occurrences in `text` of each of `needles` (lower case), ignoring case; with `wholeWords`, only
 * those with no word character on either side.
 */
export function countHits(text: string, needles: readonly string[], wholeWords: boolean): number {
  const lower = text.toLowerCase();
  let hits = 0;
  for (const needle of needles) {
    if (!needle) continue;
    for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, i + needle.length)) {
      if (!wholeWords || (!wordCharBefore(lower, i) && !wordCharAt(lower, i + needle.length))) hits += 1;
    }
  }
  return hits;
}
