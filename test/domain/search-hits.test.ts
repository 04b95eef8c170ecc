/** Counting a query's hits in a section, as the search ranks the sections it shows. */
import { countHits, firstHit } from '../../domain/search/hits';

describe('countHits', () => {
  it('counts whole words ignoring case, not the same letters inside a longer word', () => {
    expect(countHits('Database, database; DATABASES and databased_x database', ['database'], 'word')).toBe(3);
    expect(countHits('my_database database1 1database', ['database'], 'word')).toBe(0);
  });

  it('sees letters beyond ASCII, surrogate pairs included, as parts of words', () => {
    expect(countHits('édatabase databaseé (database)', ['database'], 'word')).toBe(1);
    // 𝒜 (U+1D49C) is a letter outside the basic plane; 😀 is not a word character
    expect(countHits('𝒜database 😀database database😀', ['database'], 'word')).toBe(2);
  });

  it('adds up each needle, and counts anywhere in a word when not whole words', () => {
    expect(countHits('to be or not to be', ['to', 'be'], 'word')).toBe(4);
    expect(countHits('Together, to be', ['to'], 'anywhere')).toBe(2);
    expect(countHits('aaaa', ['aa'], 'anywhere')).toBe(2);
    expect(countHits('anything', [''], 'anywhere')).toBe(0);
  });

  it('finds where the first hit starts, -1 without one, and the start of a text whose lower case is longer', () => {
    expect(firstHit('A big DATABASE, then a database', ['database', 'then'], 'word')).toBe(6);
    expect(firstHit('databases only', ['database'], 'word')).toBe(-1);
    expect(firstHit('databases only', ['database'], 'anywhere')).toBe(0);
    expect(firstHit('İstanbul database', ['database'], 'word')).toBe(0);
    expect(firstHit('anything', [], 'anywhere')).toBe(-1);
  });

  it('finds a prefix at the start of a word only, the whole word included', () => {
    expect(countHits('Installation, install, reinstall, INSTALLING', ['instal'], 'prefix')).toBe(3);
    expect(firstHit('reinstall then installation', ['instal'], 'prefix')).toBe(15);
  });
});
