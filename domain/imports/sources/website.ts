/**
 * `website` and `html`: web pages through the guarded client. A website crawl starts at the URL and
 * follows links within its origin and path prefix, breadth first, bounded in pages, depth and bytes,
 * honouring the site's robots.txt; `html` imports the one page. Each page's main content becomes a
 * page whose place in the tree follows its URL path; links between imported pages become page links
 * at the commit, images become files.
 */
import robotsParser from 'robots-parser';
import { FetchError } from '../../../platform/net/fetch-error';
import { JobError } from '../../jobs/job-error';
import { IMPORT_FAILURES } from '../failures';
import { htmlToMarkdown } from '../html-to-markdown';
import { importRemoteImage } from '../images';
import { fetchDocument, SourceContext, unreadable } from './context';

/** The name the crawler goes by in robots.txt (the guarded client sends `docs-platform-fetch/1`). */
const ROBOTS_AGENT = 'docs-platform-fetch';
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
/** Links to these are files, not pages: never crawled. */
const NOT_PAGES =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|pdf|zip|gz|tar|mp4|mp3|webm|css|js|json|xml|txt|woff2?|ttf|eot)$/i;

/** Where a crawl may go: one origin, and the path of the start URL's folder (`''`: the whole site). */
interface Scope {
  origin: string;
  base: string;
}

/** `/docs/guide/`, `/docs/guide` and `/docs/guide/index.html` are one page. */
function normalizePath(path: string): string {
  return path.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '') || '/';
}

/** A page's identity in the crawl: origin and normalized path (query and fragment dropped). */
export function pageKey(url: URL): string {
  return url.origin + normalizePath(url.pathname);
}

function scopeOf(start: URL): Scope {
  let base = normalizePath(start.pathname);
  // a start URL naming a file (`/docs/intro.html`) crawls its folder
  if (/\.[a-z0-9]+$/i.test(base.slice(base.lastIndexOf('/') + 1))) base = base.slice(0, base.lastIndexOf('/'));
  return { origin: start.origin, base: base === '/' ? '' : base };
}

function inScope(url: URL, scope: Scope): boolean {
  if (url.origin !== scope.origin) return false;
  const path = normalizePath(url.pathname);
  return scope.base === '' || path === scope.base || path.startsWith(`${scope.base}/`);
}

/** The page's place in the tree: its path below the scope, without `.html`. */
function treePath(url: URL, scope: Scope): string[] {
  return normalizePath(url.pathname)
    .slice(scope.base.length)
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/\.html?$/i, ''));
}

/** The site's robots.txt; none (a status such as 404) allows everything. An unreachable site fails the import here. */
async function fetchRobots(ctx: SourceContext, origin: string): Promise<string | null> {
  try {
    const res = await ctx.fetch.fetch(`${origin}/robots.txt`, {
      maxBytes: 512 * 1024,
      signal: ctx.live.signal,
      headers: { accept: 'text/plain' },
    });
    return res.body.toString('utf8');
  } catch (err) {
    if (!(err instanceof FetchError) || ctx.live.signal.aborted) throw err;
    if (err.reason === 'status' || err.reason === 'size') return null;
    throw new JobError(err.code, err.message, [{ message: err.message, code: err.reason }]);
  }
}

function decode(body: Buffer, contentType: string | null): string {
  const charset = /charset=([^;]+)/i.exec(contentType ?? '')?.[1].trim();
  try {
    return new TextDecoder(charset || 'utf-8').decode(body);
  } catch {
    return body.toString('utf8');
  }
}

/** Runs `work` over `items` with at most `limit` at once; results in the items' order. */
async function mapLimit<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface CrawledPage {
  /** null: skipped (not found, not HTML, disallowed, out of budget) */
  page: { key: string; path: string[]; title: string | null; markdown: string } | null;
  /** in-scope pages it links to, in document order */
  links: { key: string; url: string }[];
}

/**
 * Stages the next batch of pages (IMPORT_BATCH_PAGES) of the crawl, or the one page of an `html`
 * import. The state keeps the frontier, so the next batch goes on from there.
 */
export async function stageWebPages(ctx: SourceContext, crawl: boolean): Promise<void> {
  const { batch } = ctx;
  const { state, limits } = batch;
  const start = new URL(ctx.run.url);
  start.hash = '';
  const scope = scopeOf(start);
  if (!state.crawl) {
    const robots = crawl ? await fetchRobots(ctx, start.origin) : null;
    state.crawl = { queue: [{ url: start.href, depth: 0 }], seen: [pageKey(start)], robots };
  }
  const frontier = state.crawl;
  const robots = frontier.robots ? robotsParser(`${start.origin}/robots.txt`, frontier.robots) : null;
  const isStart = state.processed === 0;
  const taken = frontier.queue.splice(0, Math.max(0, Math.min(limits.batchPages, limits.maxPages - state.processed)));

  const visit = async (item: { url: string; depth: number }, index: number): Promise<CrawledPage> => {
    const first = isStart && index === 0;
    const skipped: CrawledPage = { page: null, links: [] };
    if (first && robots?.isAllowed(item.url, ROBOTS_AGENT) === false)
      throw new JobError(IMPORT_FAILURES.fetch, `${item.url}: the site's robots.txt disallows it`);
    if (!first && batch.remainingBytes === 0) return skipped;
    let res: Awaited<ReturnType<typeof fetchDocument>>;
    try {
      res = await fetchDocument(ctx, item.url, 'text/html, application/xhtml+xml');
    } catch (err) {
      if (first || !(err instanceof JobError)) throw err;
      return skipped; // a page that fails (404, timeout) is left out; the crawl goes on
    }
    if (!HTML_TYPES.test(res.contentType ?? 'text/html')) {
      if (first) throw unreadable(`${item.url}: not an HTML page (${res.contentType})`);
      return skipped;
    }
    const base = new URL(res.url);
    const links: CrawledPage['links'] = [];
    const converted = await htmlToMarkdown(decode(res.body, res.contentType), {
      baseUrl: res.url,
      mainContent: true,
      link: (url) => {
        if (!inScope(url, scope) || !/^https?:$/.test(url.protocol)) return url.href;
        const key = pageKey(url);
        if (!NOT_PAGES.test(url.pathname)) links.push({ key, url: `${url.origin}${url.pathname}${url.search}` });
        return batch.link(key, url.href.replace(/#.*$/, ''), url.hash);
      },
      image: (url) => importRemoteImage(batch, ctx.fetch, url, ctx.live),
    }).catch((err) => {
      // a page past the document bounds is left out like one that fails; the start page fails the import
      if (first || !(err instanceof JobError) || err.code !== IMPORT_FAILURES.limit) throw err;
      return null;
    });
    if (!converted) return skipped;
    const key = pageKey(new URL(item.url));
    return {
      page: {
        key,
        path: crawl && inScope(base, scope) ? treePath(base, scope) : [],
        title: converted.title,
        markdown: converted.markdown,
      },
      links,
    };
  };

  const crawled = await mapLimit(taken, limits.concurrency, visit);
  const seen = new Set(frontier.seen);
  crawled.forEach(({ page, links }, i) => {
    state.processed++;
    if (page) batch.addPage({ path: page.path, title: page.title, source: page.key }, page.markdown);
    const depth = taken[i].depth + 1;
    if (!crawl || depth > limits.maxDepth) return;
    for (const link of links) {
      if (seen.has(link.key)) continue;
      seen.add(link.key);
      // a page robots.txt disallows is never queued, so it takes nothing of the page budget
      if (robots?.isAllowed(link.url, ROBOTS_AGENT) !== false) frontier.queue.push({ url: link.url, depth });
    }
  });
  frontier.seen = [...seen];
  state.finished =
    !crawl || frontier.queue.length === 0 || state.processed >= limits.maxPages || batch.remainingBytes === 0;
}
