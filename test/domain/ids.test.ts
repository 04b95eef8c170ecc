/** newId: never read as an option (no leading "-" or "_"), from the id alphabet, unguessable. */
import { newId } from '../../domain/ids';

describe('newId', () => {
  it('begins with a letter or digit, then 120 random bits in base64url', () => {
    const ids = Array.from({ length: 20000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // every letter and digit leads some id, and every base64url character follows somewhere
    expect(new Set(ids.map((id) => id[0])).size).toBe(62);
    expect(new Set(ids.flatMap((id) => [...id.slice(1)])).size).toBe(64);
  });
});
