/** The process-wide cache of content objects: read once from the database, frozen, bounded. */
import { ObjectCache, sharedObjects } from '../../domain/content/object-cache';
import { ObjectStore } from '../../domain/content/objects';
import { ContentObject } from '../../entities/ContentObject';
import { unique } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

describe('content object cache', () => {
  it('reads an object from the database once for every store of the process, and never one that was only staged', async () => {
    const writer = new ObjectStore(server.ds.manager);
    const hash = writer.put({ l: { [unique('k')]: 1 } });
    expect(sharedObjects.has(hash)).toBe(false);
    await writer.flush();
    expect(sharedObjects.has(hash)).toBe(false);

    const first = await new ObjectStore(server.ds.manager).get(hash);
    expect(sharedObjects.has(hash)).toBe(true);
    // gone from the database, still read: an object's hash names its bytes forever
    await server.ds.manager.delete(ContentObject, { hash });
    expect(await new ObjectStore(server.ds.manager).get(hash)).toBe(first);
  });

  it('freezes what it holds, so no reader changes what others read', async () => {
    const cache = new ObjectCache(1024);
    const value = cache.add('h', JSON.stringify({ b: { '0a': 'x' }, l: [1] })) as {
      b: Record<string, string>;
      l: number[];
    };
    expect(() => {
      value.b['0a'] = 'y';
    }).toThrow(TypeError);
    expect(() => value.l.push(2)).toThrow(TypeError);
    expect(cache.get('h')).toEqual({ b: { '0a': 'x' }, l: [1] });
  });

  it('drops the least recently read objects beyond its budget of text', async () => {
    const cache = new ObjectCache(30);
    const text = JSON.stringify('0123456789'); // 12 characters
    cache.add('a', text);
    cache.add('b', text);
    cache.get('a');
    cache.add('c', text);
    expect(['a', 'b', 'c'].filter((h) => cache.has(h))).toEqual(['a', 'c']);
  });
});
