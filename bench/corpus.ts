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
  'account',
  'alert',
  'archive',
  'audit',
  'authentication',
  'backup',
  'billing',
  'branch',
  'bucket',
  'build',
  'cache',
  'certificate',
  'channel',
  'checkout',
  'client',
  'cluster',
  'collection',
  'comment',
  'configuration',
  'connector',
  'container',
  'credential',
  'dashboard',
  'database',
  'dataset',
  'deployment',
  'device',
  'domain',
  'endpoint',
  'environment',
  'event',
  'export',
  'feature',
  'field',
  'file',
  'filter',
  'firewall',
  'folder',
  'gateway',
  'group',
  'hook',
  'identity',
  'image',
  'import',
  'index',
  'instance',
  'integration',
  'invoice',
  'job',
  'key',
  'label',
  'latency',
  'license',
  'limit',
  'listener',
  'log',
  'mailbox',
  'manifest',
  'member',
  'message',
  'metric',
  'migration',
  'mirror',
  'model',
  'module',
  'namespace',
  'network',
  'node',
  'notification',
  'organization',
  'package',
  'partition',
  'password',
  'payload',
  'permission',
  'pipeline',
  'plan',
  'plugin',
  'policy',
  'pool',
  'project',
  'protocol',
  'proxy',
  'queue',
  'quota',
  'record',
  'region',
  'registry',
  'release',
  'replica',
  'report',
  'repository',
  'request',
  'resource',
  'response',
  'role',
  'rule',
  'runner',
  'schedule',
  'schema',
  'scope',
  'secret',
  'segment',
  'server',
  'service',
  'session',
  'setting',
  'shard',
  'signature',
  'snapshot',
  'subscription',
  'subnet',
  'table',
  'tag',
  'task',
  'team',
  'template',
  'tenant',
  'threshold',
  'ticket',
  'token',
  'topic',
  'trace',
  'transaction',
  'trigger',
  'upload',
  'user',
  'variable',
  'version',
  'volume',
  'webhook',
  'widget',
  'window',
  'worker',
  'workflow',
  'workspace',
  'zone',
  'throughput',
  'sandbox',
  'runtime',
  'adapter',
  'agent',
  'allowlist',
  'annotation',
  'appliance',
  'artifact',
  'assertion',
  'attachment',
  'attribute',
  'autoscaler',
  'badge',
  'balancer',
  'baseline',
  'batch',
  'binding',
  'blob',
  'bookmark',
  'bundle',
  'callback',
  'canary',
  'capacity',
  'catalog',
  'changelog',
  'checksum',
  'cipher',
  'claim',
  'codec',
  'commit',
  'compiler',
  'component',
  'connection',
  'console',
  'consumer',
  'contract',
  'controller',
  'cookie',
  'coupon',
  'cron',
  'cursor',
  'daemon',
  'debugger',
  'dependency',
  'descriptor',
  'diagram',
  'digest',
  'directory',
  'dispatcher',
  'draft',
  'driver',
  'editor',
  'emitter',
  'encoding',
  'entitlement',
  'exception',
  'experiment',
  'extension',
  'failover',
  'fallback',
  'fixture',
  'flag',
  'fork',
  'formatter',
  'framework',
  'function',
  'glossary',
  'grant',
  'graph',
  'handler',
  'hash',
  'header',
  'heartbeat',
  'histogram',
  'host',
  'hostname',
  'incident',
  'inventory',
  'issuer',
  'journal',
  'kernel',
  'keystore',
  'layer',
  'lease',
  'ledger',
  'library',
  'lifecycle',
  'locale',
  'lock',
  'marketplace',
  'middleware',
  'milestone',
  'mount',
  'mutation',
  'notebook',
  'operator',
  'orchestrator',
  'origin',
  'parser',
  'patch',
  'peer',
  'portal',
  'preview',
  'principal',
  'probe',
  'processor',
  'producer',
  'profile',
  'prompt',
  'provider',
  'publisher',
  'query',
  'reader',
  'receipt',
  'recipe',
  'redirect',
  'refund',
  'renderer',
  'replication',
  'resolver',
  'retention',
  'revision',
  'router',
  'sampler',
  'scanner',
  'scheduler',
  'script',
  'selector',
  'sensor',
  'serializer',
  'shortcut',
  'sidecar',
  'sitemap',
  'socket',
  'spreadsheet',
  'stack',
  'statement',
  'storage',
  'stream',
  'stylesheet',
  'submission',
  'suite',
  'switch',
  'syntax',
  'terminal',
  'thread',
  'timeline',
  'timestamp',
  'toggle',
  'tokenizer',
  'tracker',
  'transform',
  'translation',
  'tunnel',
  'tutorial',
  'validator',
  'vault',
  'viewer',
  'wallet',
  'watcher',
  'wizard',
  'writer',
] as const;
const VERBS = [
  'configure',
  'create',
  'delete',
  'deploy',
  'disable',
  'enable',
  'export',
  'import',
  'inspect',
  'install',
  'invite',
  'merge',
  'monitor',
  'publish',
  'restore',
  'review',
  'rotate',
  'scale',
  'schedule',
  'update',
  'upgrade',
  'validate',
  'verify',
] as const;
const ADJECTIVES = [
  'automatic',
  'custom',
  'default',
  'encrypted',
  'external',
  'global',
  'internal',
  'manual',
  'optional',
  'persistent',
  'primary',
  'private',
  'public',
  'regional',
  'required',
  'secondary',
  'secure',
  'shared',
  'temporary',
  'verified',
] as const;
const HEADINGS = [
  'Overview',
  'Before you begin',
  'Limits',
  'Permissions',
  'Troubleshooting',
  'Examples',
  'Best practices',
  'Reference',
  'Related topics',
  'Known issues',
  'Next steps',
  'Security',
] as const;

/** Cumulative Zipf weights (exponent 1) over NOUNS: rank 1 is 300 times more frequent than rank 300. */
const ZIPF = (() => {
  const weights = NOUNS.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  return weights.map((w) => (acc += w / total));
})();

function zipfNoun(rnd: Random): string {
  const x = rnd.next();
  const i = ZIPF.findIndex((c) => c >= x);
  return NOUNS[i < 0 ? NOUNS.length - 1 : i];
}

/** Share of a page's nouns taken from its own topic: pages are about something, as real docs are. */
const TOPIC_SHARE = 0.75;
type Nouns = () => string;

function topicNouns(rnd: Random): Nouns {
  const topic = [zipfNoun(rnd), zipfNoun(rnd), rnd.pick(NOUNS)];
  return () => (rnd.next() < TOPIC_SHARE ? rnd.pick(topic) : zipfNoun(rnd));
}

const capitalize = (s: string): string => s[0].toUpperCase() + s.slice(1);

function sentence(rnd: Random, noun: Nouns): string {
  switch (rnd.int(5)) {
    case 0:
      return `${capitalize(rnd.pick(VERBS))} the ${rnd.pick(ADJECTIVES)} ${noun()} before you ${rnd.pick(VERBS)} the ${noun()}.`;
    case 1:
      return `Each ${noun()} has a ${rnd.pick(ADJECTIVES)} ${noun()} that applies to every ${noun()} in the ${noun()}.`;
    case 2:
      return `When the ${noun()} reaches its ${noun()}, the ${noun()} is ${rnd.pick(['paused', 'retried', 'queued', 'rejected', 'logged'])} and an ${noun()} is sent.`;
    case 3:
      return `You can ${rnd.pick(VERBS)} a ${noun()} from the ${noun()} settings, or with the API using a ${rnd.pick(ADJECTIVES)} ${noun()}.`;
    default:
      return `Only members with the ${noun()} ${rnd.pick(['admin', 'editor', 'owner'])} role can ${rnd.pick(VERBS)} ${rnd.pick(ADJECTIVES)} ${noun()}s.`;
  }
}

function paragraph(rnd: Random, noun: Nouns, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(rnd, noun)).join(' ');
}

export interface LinkTargets {
  /** ids of pages that already exist */
  pageIds: string[];
  /** paths of pages that already exist */
  paths: string[];
}

/**
 * A page about a topic of three nouns: its title and about 1.5 KB of markdown, an introduction then
 * nine headings, so the search index gets ten sections per page. Most pages link to an earlier page
 * by id, some by path, some to a URL.
 */
export function writePage(rnd: Random, links: LinkTargets): { title: string; markdown: string } {
  const noun = topicNouns(rnd);
  const title = `${capitalize(rnd.pick(VERBS))} ${rnd.pick(ADJECTIVES)} ${noun()} ${noun()}s`;
  const parts = [paragraph(rnd, noun, 2)];
  const headings = rnd.sample(HEADINGS, 9);
  headings.forEach((heading, i) => {
    parts.push(`${i % 3 === 2 ? '###' : '##'} ${heading}: ${noun()} ${noun()}`);
    parts.push(paragraph(rnd, noun, 1 + rnd.int(2)));
    if (i === 2 && links.pageIds.length)
      parts.push(`See [the related ${noun()} page](page:${rnd.pick(links.pageIds)}) for details.`);
    if (i === 4 && links.paths.length && rnd.int(10) === 0)
      parts.push(`Start from [the overview](/${rnd.pick(links.paths)}).`);
    if (i === 6 && rnd.int(3) === 0)
      parts.push(`More in the [vendor documentation](https://example.com/docs/${noun()}).`);
    if (i === 7 && rnd.int(4) === 0)
      parts.push(`\`\`\`bash\nexample ${rnd.pick(VERBS)} ${noun()} --${rnd.pick(ADJECTIVES)}\n\`\`\``);
  });
  return { title, markdown: parts.join('\n\n') };
}

/** One or two topic words, as people type them in a search box (any topic equally likely). */
/** A query as typed: its last word cut short (3 letters at least), which matches as a prefix. */
export function typedQuery(rnd: Random): string {
  const words = searchQuery(rnd).split(' ');
  const last = words.pop()!;
  return [...words, last.slice(0, Math.max(3, last.length - 1 - rnd.int(3)))].join(' ');
}

export function searchQuery(rnd: Random): string {
  const first = rnd.pick(NOUNS);
  return rnd.int(2) ? first : `${first} ${rnd.pick(NOUNS)}`;
}
