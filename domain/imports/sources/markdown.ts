/**
 * `markdown`: one markdown document from a URL (archives use the same conversion). The markdown is
 * rendered to HTML and converted back the way web pages are, so its links and images are rewritten
 * on one DOM: images become files, relative links absolute (or page links, in an archive).
 */
import MarkdownIt from 'markdown-it';
import { boundedMarkdown, MarkdownTooLarge } from '../../content/markdown';
import { titleOfSegment } from '../batch';
import {
  type ConvertedPage,
  type ConvertOptions,
  checkDocumentCharacters,
  documentTooLarge,
  htmlToMarkdown,
} from '../html-to-markdown';
import { fileNameOf, importRemoteImage } from '../images';
import { fetchDocument, SourceContext } from './context';

// the content's token and nesting bounds: a document past them is LIMIT_EXCEEDED before its HTML exists
const renderer = boundedMarkdown(new MarkdownIt({ html: true, linkify: true }));

/** YAML front matter opening a document, with the `title` it may give. */
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** The front matter's `title:` value, unquoted. Read without a backtracking pattern: `(.+?)["']?\s*$` took quadratic time on a long line. */
function frontTitleOf(front: string): string | null {
  const line = /^title:(.*)$/m.exec(front)?.[1].trim();
  const title = line?.replace(/^["']/, '').replace(/["']$/, '').trim();
  return title || null;
}

function render(markdown: string, where: string): string {
  try {
    return renderer.render(markdown);
  } catch (err) {
    if (err instanceof MarkdownTooLarge) throw documentTooLarge(where, `the markdown ${err.message}`);
    throw err;
  }
}

export async function markdownToPage(
  text: string,
  options: Omit<ConvertOptions, 'mainContent'>,
): Promise<ConvertedPage> {
  checkDocumentCharacters(text, options.baseUrl);
  const source = text.replace(/^\uFEFF/, '');
  const front = FRONT_MATTER.exec(source);
  const frontTitle = front ? frontTitleOf(front[1]) : null;
  const converted = await htmlToMarkdown(render(front ? source.slice(front[0].length) : source, options.baseUrl), {
    ...options,
    mainContent: false,
  });
  return frontTitle ? { ...converted, title: frontTitle } : converted;
}

export async function stageMarkdown(ctx: SourceContext): Promise<void> {
  const { batch } = ctx;
  const res = await fetchDocument(ctx, ctx.run.url, 'text/markdown, text/plain, */*');
  const page = await markdownToPage(res.body.toString('utf8'), {
    baseUrl: res.url,
    link: (url) => url.href,
    image: (url) => importRemoteImage(batch, ctx.fetch, url, ctx.live),
  });
  batch.state.processed = 1;
  batch.addPage(
    {
      path: [],
      title: page.title ?? titleOfSegment(fileNameOf(new URL(res.url).pathname, 'Imported page')),
      source: null,
    },
    page.markdown,
  );
  batch.state.finished = true;
}
