/**
 * A persistent hash trie over string keys, stored as content-addressed nodes. Changing k keys
 * rewrites only the nodes on their paths (O(k log n)); unchanged subtrees are shared between
 * revisions, as git shares unchanged trees. A leaf holds at most LEAF_MAX entries, then splits
 * into 256 buckets on the next byte of the key's hash.
 */
import { createHash } from 'crypto';
import type { ObjectStore } from './objects';

const LEAF_MAX = 128;

type Leaf<V> = { l: Record<string, V> };
type Branch = { b: Record<string, string> };
type Node<V> = Leaf<V> | Branch;

/** Keys' hashes, remembered: a page read looks up the same few keys at every level of the trie, on every request. */
const keyHashes = new Map<string, string>();
const KEY_HASHES_MAX = 20_000;

function hashOf(key: string): string {
  let hash = keyHashes.get(key);
  if (hash === undefined) {
    if (keyHashes.size >= KEY_HASHES_MAX) keyHashes.clear();
    hash = createHash('sha1').update(key).digest('hex');
    keyHashes.set(key, hash);
  }
  return hash;
}

function bucketOf(key: string, depth: number): string {
  return hashOf(key).slice(depth * 2, depth * 2 + 2);
}

const isLeaf = <V>(n: Node<V>): n is Leaf<V> => 'l' in n;

export function emptyTrie(store: ObjectStore): string {
  return store.put({ l: {} });
}

/** Values for `keys` (absent keys are left out), loading only the nodes on their paths. */
export async function getMany<V>(store: ObjectStore, root: string, keys: Iterable<string>): Promise<Map<string, V>> {
  const out = new Map<string, V>();
  let frontier: Array<{ hash: string; keys: string[] }> = [{ hash: root, keys: [...new Set(keys)] }];
  for (let depth = 0; frontier.length; depth++) {
    const nodes = await store.getMany<Node<V>>(frontier.map((f) => f.hash));
    const next: Array<{ hash: string; keys: string[] }> = [];
    for (const f of frontier) {
      const node = nodes.get(f.hash)!;
      if (isLeaf(node)) {
        for (const k of f.keys) if (k in node.l) out.set(k, node.l[k]);
        continue;
      }
      const byBucket = new Map<string, string[]>();
      for (const k of f.keys) {
        const b = bucketOf(k, depth);
        if (node.b[b]) byBucket.set(b, [...(byBucket.get(b) ?? []), k]);
      }
      for (const [b, ks] of byBucket) next.push({ hash: node.b[b], keys: ks });
    }
    frontier = next;
  }
  return out;
}

export async function get<V>(store: ObjectStore, root: string, key: string): Promise<V | undefined> {
  return (await getMany<V>(store, root, [key])).get(key);
}

/** Every entry, loading the trie level by level (one query per level). */
export async function entries<V>(store: ObjectStore, root: string, keyPrefix = ''): Promise<Map<string, V>> {
  const out = new Map<string, V>();
  let frontier = [root];
  while (frontier.length) {
    const nodes = await store.getMany<Node<V>>(frontier);
    const next: string[] = [];
    for (const h of frontier) {
      const node = nodes.get(h)!;
      if (isLeaf(node)) {
        for (const [k, v] of Object.entries(node.l)) if (k.startsWith(keyPrefix)) out.set(k, v);
      } else next.push(...Object.values(node.b));
    }
    frontier = next;
  }
  return out;
}

/** Applies changes (undefined deletes a key) and returns the new root; stages new nodes in the store. */
export async function update<V>(
  store: ObjectStore,
  root: string,
  changes: Map<string, V | undefined>,
): Promise<string> {
  if (!changes.size) return root;
  return updateNode(store, root, [...changes.entries()], 0);
}

async function updateNode<V>(
  store: ObjectStore,
  hash: string,
  changes: Array<[string, V | undefined]>,
  depth: number,
): Promise<string> {
  const node = await store.get<Node<V>>(hash);
  if (isLeaf(node)) {
    const l = { ...node.l };
    for (const [k, v] of changes) {
      if (v === undefined) delete l[k];
      else l[k] = v;
    }
    const keys = Object.keys(l);
    if (keys.length <= LEAF_MAX) return store.put({ l });
    // split: regroup this leaf's entries by the next byte of their hash
    const buckets = new Map<string, Record<string, V>>();
    for (const k of keys) {
      const b = bucketOf(k, depth);
      buckets.set(b, { ...(buckets.get(b) ?? {}), [k]: l[k] });
    }
    const b: Record<string, string> = {};
    for (const [bucket, leaf] of buckets)
      b[bucket] = await updateNode(store, store.put({ l: {} }), Object.entries(leaf) as Array<[string, V]>, depth + 1);
    return store.put({ b });
  }
  const groups = new Map<string, Array<[string, V | undefined]>>();
  for (const c of changes) {
    const bucket = bucketOf(c[0], depth);
    groups.set(bucket, [...(groups.get(bucket) ?? []), c]);
  }
  const b = { ...node.b };
  for (const [bucket, group] of groups) {
    const child = b[bucket] ?? store.put({ l: {} });
    const updated = await updateNode(store, child, group, depth + 1);
    const updatedNode = await store.get<Node<V>>(updated);
    if (isLeaf(updatedNode) && !Object.keys(updatedNode.l).length) delete b[bucket];
    else b[bucket] = updated;
  }
  return store.put({ b });
}

/**
 * Keys whose values differ between two tries, skipping shared subtrees by hash, so the cost is in
 * proportion to the differences. Returns [key, before, after] (undefined where absent).
 */
export async function diff<V>(
  store: ObjectStore,
  a: string,
  b: string,
): Promise<Array<[string, V | undefined, V | undefined]>> {
  const out: Array<[string, V | undefined, V | undefined]> = [];
  await diffNodes<V>(store, a, b, out);
  return out;
}

async function diffNodes<V>(
  store: ObjectStore,
  a: string,
  b: string,
  out: Array<[string, V | undefined, V | undefined]>,
): Promise<void> {
  if (a === b) return;
  const nodes = await store.getMany<Node<V>>([a, b]);
  const na = nodes.get(a)!;
  const nb = nodes.get(b)!;
  if (!isLeaf(na) && !isLeaf(nb)) {
    const buckets = new Set([...Object.keys(na.b), ...Object.keys(nb.b)]);
    const empty = store.put({ l: {} });
    for (const bucket of buckets) await diffNodes(store, na.b[bucket] ?? empty, nb.b[bucket] ?? empty, out);
    return;
  }
  // shapes differ (or both leaves): compare the entries under each side
  const ea = isLeaf(na) ? new Map(Object.entries(na.l)) : await entries<V>(store, a);
  const eb = isLeaf(nb) ? new Map(Object.entries(nb.l)) : await entries<V>(store, b);
  for (const [k, va] of ea) {
    const vb = eb.get(k);
    if (vb === undefined || JSON.stringify(va) !== JSON.stringify(vb)) out.push([k, va, vb]);
  }
  for (const [k, vb] of eb) if (!ea.has(k)) out.push([k, undefined, vb]);
}
