/**
 * Reproducible, documentation-like text for the benchmark: a seeded random source, page markdown
 * with ten sections (nine headings) of about 1.5 KB, and search queries over the same vocabulary.
 * Topic words follow a Zipf-like distribution, so some are common and most are rare, as in real docs.
 */

/** mulberry32: a small, fast, seedable generator, so every run builds the same corpus. */
export class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** `count` distinct items, in random order (Fisher–Yates on a copy). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, count);
  }
}

const NOUNS = [
  'account', 'alert', 'archive', 'audit', 'authentication', 'backup', 'billing', 'branch', 'bucket', 'build',
  'cache', 'certificate', 'channel', 'checkout', 'client', 'cluster', 'collection', 'comment', 'configuration', 'connector',
  'container', 'credential', 'dashboard', 'database', 'dataset', 'deployment', 'device', 'domain', 'endpoint', 'environment',
  'event', 'export', 'feature', 'field', 'file', 'filter', 'firewall', 'folder', 'gateway', 'group',
  'hook', 'identity', 'image', 'import', 'index', 'instance', 'integration', 'invoice', 'job', 'key',
  'label', 'latency', 'license', 'limit', 'listener', 'log', 'mailbox', 'manifest', 'member', 'message',
  'metric', 'migration', 'mirror', 'model', 'module', 'namespace', 'network', 'node', 'notification', 'organization',
  'package', 'partition', 'password', 'payload', 'permission', 'pipeline', 'plan', 'plugin', 'policy', 'pool',
  'project', 'protocol', 'proxy', 'queue', 'quota', 'record', 'region', 'registry', 'release', 'replica',
  'report', 'repository', 'request', 'resource', 'response', 'role', 'rule', 'runner', 'schedule', 'schema',
  'scope', 'secret', 'segment', 'server', 'service', 'session', 'setting', 'shard', 'signature', 'snapshot',
  'subscription', 'subnet', 'table', 'tag', 'task', 'team', 'template', 'tenant', 'threshold', 'ticket',
  'token', 'topic', 'trace', 'transaction', 'trigger', 'upload', 'user', 'variable', 'version', 'volume',
  'webhook', 'widget', 'window', 'worker', 'workflow', 'workspace', 'zone', 'throughput', 'sandbox', 'runtime',
] as const;
const VERBS = ['configure', 'create', 'delete', 'deploy', 'disable', 'enable', 'export', 'import', 'inspect', 'install', 'invite', 'merge', 'monitor', 'publish', 'restore', 'review', 'rotate', 'scale', 'schedule', 'update', 'upgrade', 'validate', 'verify'] as const;
const ADJECTIVES = ['automatic', 'custom', 'default', 'encrypted', 'external', 'global', 'internal', 'manual', 'optional', 'persistent', 'primary', 'private', 'public', 'regional', 'required', 'secondary', 'secure', 'shared', 'temporary', 'verified'] as const;
const HEADINGS = ['Overview', 'Before you begin', 'Limits', 'Permissions', 'Troubleshooting', 'Examples', 'Best practices', 'Reference', 'Related topics', 'Known issues', 'Next steps', 'Security'] as const;

/** Cumulative Zipf weights (exponent 1) over NOUNS: rank 1 is about 28 times more frequent than rank 150. */
const ZIPF = (() => {
  const weights = NOUNS.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  return weights.map((w) => (acc += w / total));
})();

function noun(rnd: Random): string {
  const x = rnd.next();
  const i = ZIPF.findIndex((c) => c >= x);
  return NOUNS[i < 0 ? NOUNS.length - 1 : i];
}

const capitalize = (s: string): string => s[0].toUpperCase() + s.slice(1);

function sentence(rnd: Random): string {
  switch (rnd.int(5)) {
    case 0: return `${capitalize(rnd.pick(VERBS))} the ${rnd.pick(ADJECTIVES)} ${noun(rnd)} before you ${rnd.pick(VERBS)} the ${noun(rnd)}.`;
    case 1: return `Each ${noun(rnd)} has a ${rnd.pick(ADJECTIVES)} ${noun(rnd)} that applies to every ${noun(rnd)} in the ${noun(rnd)}.`;
    case 2: return `When the ${noun(rnd)} reaches its ${noun(rnd)}, the ${noun(rnd)} is ${rnd.pick(['paused', 'retried', 'queued', 'rejected', 'logged'])} and an ${noun(rnd)} is sent.`;
    case 3: return `You can ${rnd.pick(VERBS)} a ${noun(rnd)} from the ${noun(rnd)} settings, or with the API using a ${rnd.pick(ADJECTIVES)} ${noun(rnd)}.`;
    default: return `Only members with the ${noun(rnd)} ${rnd.pick(['admin', 'editor', 'owner'])} role can ${rnd.pick(VERBS)} ${rnd.pick(ADJECTIVES)} ${noun(rnd)}s.`;
  }
}

function paragraph(rnd: Random, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(rnd)).join(' ');
}

export function pageTitle(rnd: Random): string {
  return `${capitalize(rnd.pick(VERBS))} ${rnd.pick(ADJECTIVES)} ${noun(rnd)} ${noun(rnd)}s`;
}

export interface LinkTargets {
  /** ids of pages that already exist */
  pageIds: string[];
  /** paths of pages that already exist */
  paths: string[];
}

/**
 * About 1.5 KB of markdown: an introduction then nine headings, so the search index gets ten
 * sections per page. Most pages link to an earlier page by id, some by path, some to a URL.
 */
export function pageMarkdown(rnd: Random, links: LinkTargets): string {
  const parts = [paragraph(rnd, 2)];
  const headings = rnd.sample(HEADINGS, 9);
  headings.forEach((heading, i) => {
    parts.push(`${i % 3 === 2 ? '###' : '##'} ${heading}: ${noun(rnd)} ${noun(rnd)}`);
    parts.push(paragraph(rnd, 1 + rnd.int(2)));
    if (i === 2 && links.pageIds.length) parts.push(`See [the related ${noun(rnd)} page](page:${rnd.pick(links.pageIds)}) for details.`);
    if (i === 4 && links.paths.length && rnd.int(10) === 0) parts.push(`Start from [the overview](/${rnd.pick(links.paths)}).`);
    if (i === 6 && rnd.int(3) === 0) parts.push(`More in the [vendor documentation](https://example.com/docs/${noun(rnd)}).`);
    if (i === 7 && rnd.int(4) === 0) parts.push(`\`\`\`bash\nexample ${rnd.pick(VERBS)} ${noun(rnd)} --${rnd.pick(ADJECTIVES)}\n\`\`\``);
  });
  return parts.join('\n\n');
}

/** One or two topic words, as people type them in a search box. */
export function searchQuery(rnd: Random): string {
  const first = rnd.pick(NOUNS);
  return rnd.int(2) ? first : `${first} ${rnd.pick(NOUNS)}`;
}
