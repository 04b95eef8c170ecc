/**
 * One HTML document to page markdown, for every source: a web page's main content is extracted
 * with Readability over a light server DOM (linkedom); the HTML the import makes itself (from
 * markdown, from a Word document) is taken whole. Links and images are rewritten by the caller's
 * callbacks before Turndown (with its GFM plugin: tables, strikethrough, task lists) writes markdown.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { fitsTokenBudget, PAGE_MARKDOWN_MAX_CHARACTERS } from '../content/markdown';
import { JobError } from '../jobs/job-error';
import { IMPORT_FAILURES } from './failures';

export interface ConvertOptions {
  /** What relative links and images are relative to. */
  baseUrl: string;
  /** Extract the main content (web pages) rather than converting the whole body. */
  mainContent: boolean;
  /** The href an `<a>` to `url` gets (`#fragment` and `mailto:` links are left alone). */
  link(url: URL): string;
  /** The src an `<img>` of `url` gets; null: the image is dropped. */
  image(url: URL): Promise<string | null>;
}

export interface ConvertedPage {
  /** The document's title: its first heading, else its `<title>`; null when it has neither. */
  title: string | null;
  markdown: string;
}

type Document = ReturnType<typeof parseHTML>['document'];
type Element = Document['body'];

/**
 * Bounds of one document an import converts (a page, an archive's markdown file, a Word document's HTML),
 * past which it is LIMIT_EXCEEDED: linkedom holds ~3 KB per element (100,000 `<p>`s in 800 KB took 400 MB),
 * and Readability's passes grow with the depth (5,000 nested `<div>`s, 55 KB, took 275 s before Turndown's
 * recursion overflowed the stack).
 */
export const IMPORT_DOCUMENT_BOUNDS = {
  /** of the HTML or markdown text, before any parse */
  characters: 5_000_000,
  /** start tags, counted in the text before linkedom parses it (an upper bound on the elements) */
  elements: 20_000,
  /** levels of elements, walked after linkedom's parse (iterative) and before Readability and Turndown (recursive) */
  depth: 256,
} as const;

export function documentTooLarge(where: string, rule: string): JobError {
  return new JobError(IMPORT_FAILURES.limit, `${where}: ${rule}`);
}

/** Refuses text past the document's character bound. */
export function checkDocumentCharacters(text: string, where: string): void {
  if (text.length > IMPORT_DOCUMENT_BOUNDS.characters)
    throw documentTooLarge(where, `the document has more than ${IMPORT_DOCUMENT_BOUNDS.characters} characters`);
}

/** Counts `<` followed by a letter: every element's start tag has one (a comment or a script may add more). */
function startTags(html: string): number {
  let count = 0;
  for (const _ of html.matchAll(/<[A-Za-z]/g)) count++;
  return count;
}

function depthOf(root: Element): number {
  let deepest = 0;
  const stack: Array<[Element, number]> = [[root, 1]];
  while (stack.length) {
    const [element, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of element.children) stack.push([child as Element, depth + 1]);
  }
  return deepest;
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '*',
});
turndown.use(gfm);
// Scripts, styles and forms are not content.
turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'select', 'textarea']);

function resolve(href: string | null, base: string): URL | null {
  if (!href || href.startsWith('#') || /^(mailto|tel|javascript|data):/i.test(href.trim())) return null;
  try {
    return new URL(href.trim(), base);
  } catch {
    return null;
  }
}

function rewriteLinks(root: Element, options: ConvertOptions): void {
  for (const a of root.querySelectorAll('a[href]')) {
    const url = resolve(a.getAttribute('href'), options.baseUrl);
    if (url) a.setAttribute('href', options.link(url));
  }
}

async function rewriteImages(root: Element, options: ConvertOptions): Promise<void> {
  for (const img of root.querySelectorAll('img')) {
    img.removeAttribute('srcset');
    const url = resolve(img.getAttribute('src'), options.baseUrl);
    const src = url ? await options.image(url) : null;
    if (src) img.setAttribute('src', src);
    else img.remove();
  }
}

/** C0 controls other than tab and line feed, and stray carriage returns, are no page text. */
function cleanText(markdown: string): string {
  return (
    markdown
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .trim()
  );
}

/** A title that opens the markdown as its first heading is the page's title, not its text. */
function withoutTitleHeading(markdown: string, title: string | null): string {
  const first = /^# (.+)\n*/.exec(markdown);
  return first && title && first[1].trim() === title ? markdown.slice(first[0].length) : markdown;
}

/**
 * The page's main content: Readability over the page's own main element when it marks one (`<main>`,
 * `role="main"`, its one `<article>`), so navigation and footers never compete with it, else over the
 * whole page; the body itself when Readability finds nothing.
 */
function mainContent(document: Document): Element {
  const articles = document.querySelectorAll('article');
  const marked = document.querySelector('main, [role="main"]') ?? (articles.length === 1 ? articles[0] : null);
  const scope = marked ? parseHTML(`<!doctype html><html><body>${marked.outerHTML}</body></html>`).document : document;
  const article = new Readability<Element>(scope as never, {
    serializer: (node) => node as unknown as Element,
  }).parse();
  return article?.content ?? scope.body;
}

/** The document's title: its first `<h1>`, else its `<title>`. */
function titleOf(document: Document): string | null {
  const heading = document.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim();
  return heading || document.querySelector('title')?.textContent?.trim() || null;
}

/**
 * Below this much HTML the markdown should not pass the page's bounds (turndown at most doubles the text
 * with escapes, and markdown makes about 2 tokens a character at most), so only larger content is converted
 * once more before its images are fetched; the check after them holds either way.
 */
const SURELY_WITHIN_BOUNDS = 50_000;

/** The page's markdown when it is one the API would take (its length, and the parse every write makes of it). */
function checkedMarkdown(root: Element, title: string | null, where: string): string {
  const markdown = withoutTitleHeading(cleanText(turndown.turndown(root.innerHTML ?? '')), title).trim();
  if (markdown.length > PAGE_MARKDOWN_MAX_CHARACTERS)
    throw documentTooLarge(where, `its markdown would have more than ${PAGE_MARKDOWN_MAX_CHARACTERS} characters`);
  if (!fitsTokenBudget(markdown)) throw documentTooLarge(where, 'its markdown would be too large to parse');
  return markdown;
}

export async function htmlToMarkdown(html: string, options: ConvertOptions): Promise<ConvertedPage> {
  const where = options.baseUrl;
  checkDocumentCharacters(html, where);
  if (startTags(html) > IMPORT_DOCUMENT_BOUNDS.elements)
    throw documentTooLarge(where, `the document has more than ${IMPORT_DOCUMENT_BOUNDS.elements} elements`);
  // a fragment (the HTML made from markdown or a Word document) becomes a whole document
  const { document } = parseHTML(/<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  if (document.documentElement && depthOf(document.documentElement) > IMPORT_DOCUMENT_BOUNDS.depth)
    throw documentTooLarge(where, `the document nests elements more than ${IMPORT_DOCUMENT_BOUNDS.depth} levels deep`);
  const title = titleOf(document);
  const root = options.mainContent ? mainContent(document) : document.body;
  rewriteLinks(root, options);
  // refused before its images are fetched, a page leaves none of them behind in the import
  if ((root.innerHTML?.length ?? 0) > SURELY_WITHIN_BOUNDS) checkedMarkdown(root, title, where);
  await rewriteImages(root, options);
  return { title, markdown: checkedMarkdown(root, title, where) };
}
