/** Counting a query's hits in a section, as the search ranks the sections it shows. */
import { countHits, firstHit } from '../../domain/search/hits';

describe('countHits', () => {
  it('counts whole words ignoring case, not the same letters inside a longer word', () => {
    expect(countHits('Database, database; DATABASES and databased_x database', ['database'], true)).toBe(3);
    expect(countHits('my_database database1 1database', ['database'], true)).toBe(0);
  });

  it('sees letters beyond ASCII, surrogate pairs included, as parts of words', () => {
    expect(countHits('édatabase databaseé (database)', ['database'], true)).toBe(1);
    // 𝒜 (U+1D49C) is a letter outside the basic plane; 😀 is not a word character
    expect(countHits('𝒜database 😀database database😀', ['database'], true)).toBe(2);
  });

  it('adds up each needle, and counts anywhere in a word when not whole words', () => {
    expect(countHits('to be or not to be', ['to', 'be'], true)).toBe(4);
    expect(countHits('Together, to be', ['to'], false)).toBe(2);
    expect(countHits('aaaa', ['aa'], false)).toBe(2);
    expect(countHits('anything', [''], false)).toBe(0);
  });

  it('finds where the first hit starts, -1 without one, and the start of a text whose lower case is longer', () => {
    expect(firstHit('A big DATABASE, then a database', ['database', 'then'], true)).toBe(6);
    expect(firstHit('databases only', ['database'], true)).toBe(-1);
    expect(firstHit('databases only', ['database'], false)).toBe(0);
    expect(firstHit('İstanbul database', ['database'], true)).toBe(0);
    expect(firstHit('anything', [], false)).toBe(-1);
  });
});
