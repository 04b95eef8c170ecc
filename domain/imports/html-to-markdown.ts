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

async function rewrite(root: Element, options: ConvertOptions): Promise<void> {
  for (const a of root.querySelectorAll('a[href]')) {
    const url = resolve(a.getAttribute('href'), options.baseUrl);
    if (url) a.setAttribute('href', options.link(url));
  }
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

export async function htmlToMarkdown(html: string, options: ConvertOptions): Promise<ConvertedPage> {
  // a fragment (the HTML made from markdown or a Word document) becomes a whole document
  const { document } = parseHTML(/<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  const title = titleOf(document);
  const root = options.mainContent ? mainContent(document) : document.body;
  await rewrite(root, options);
  const markdown = cleanText(turndown.turndown(root.innerHTML ?? ''));
  return { title, markdown: withoutTitleHeading(markdown, title).trim() };
}
