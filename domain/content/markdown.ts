/** What the service reads out of page markdown: sections split at headings, and links. */
import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

import { hintBlocks } from './hints';
import type { ExtractedLink } from './model';

const md = new MarkdownIt({ html: false, linkify: true }).use(hintBlocks);
// We only read links, never render them: accept `file:` references that markdown-it rejects by default.
md.validateLink = (url: string) => !/^(javascript|vbscript|data):/i.test(url.trim());

/**
 * The token stream of the markdown, parsed as the link extractor parses it (for the document form of a
 * page); `env` receives its reference definitions, for parseInlineMarkdown.
 */
export function parseMarkdown(markdown: string, env: Record<string, unknown> = {}): Token[] {
  return md.parse(markdown, env);
}

/** One run of inline markdown, parsed as inside the document whose `env` parseMarkdown filled. */
export function parseInlineMarkdown(text: string, env: Record<string, unknown>): Token[] {
  return md.parseInline(text, env);
}

/** Where the parser's linkify finds bare links (URLs, e-mail addresses) in a run of text. */
export function linkifyMatches(text: string): Array<{ index: number; lastIndex: number }> {
  return md.linkify.match(text) ?? [];
}

export interface Section {
  anchor: string;
  title: string;
  body: string;
}

function inlineText(tokens: Token[]): string {
  return tokens
    .map((t) =>
      t.children?.length ? inlineText(t.children) : t.type === 'text' || t.type === 'code_inline' ? t.content : '',
    )
    .join('');
}

/** Sections of a page: the text before the first heading (titled by the page, kept even when empty so the title is searchable), then one per heading. */
export function splitSections(pageTitle: string, markdown: string, anchorOf: (title: string) => string): Section[] {
  const tokens = md.parse(markdown, {});
  const sections: Section[] = [{ anchor: '', title: pageTitle, body: '' }];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'heading_open') {
      const title = inlineText([tokens[i + 1]]).trim();
      sections.push({ anchor: anchorOf(title), title, body: '' });
      i += 2;
      continue;
    }
    if (t.type === 'inline' || t.type === 'code_block' || t.type === 'fence') {
      const text = t.type === 'inline' ? inlineText([t]) : t.content;
      const current = sections[sections.length - 1];
      current.body = current.body ? `${current.body}\n${text}` : text;
    }
  }
  return sections;
}

const SCHEMES: Record<string, ExtractedLink['kind']> = {
  'page:': 'page',
  'file:': 'file',
  'space:': 'space',
  'openapi:': 'openapi',
};

/** Classifies one link target: page:/file:/space:/openapi: references, http(s) URLs, or a page path. */
export function classifyLink(href: string): ExtractedLink | null {
  const target = href.trim();
  if (!target || target.startsWith('#') || target.startsWith('mailto:')) return null;
  for (const [scheme, kind] of Object.entries(SCHEMES)) {
    if (target.startsWith(scheme)) {
      const id = target.slice(scheme.length).replace(/^\/\//, '').split(/[#?]/)[0];
      return id ? { kind, target: id } : null;
    }
  }
  if (/^https?:\/\//i.test(target)) return { kind: 'url', target };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // other schemes are not ours to check
  const path = target
    .split(/[#?]/)[0]
    .replace(/^\.?\//, '')
    .replace(/\/$/, '');
  return path ? { kind: 'page', target: path, byPath: true } : null;
}

/** Every link and image in the markdown, in document order. */
export function extractLinks(markdown: string): ExtractedLink[] {
  const out: ExtractedLink[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      const href = t.type === 'link_open' ? t.attrGet('href') : t.type === 'image' ? t.attrGet('src') : null;
      if (href) {
        const link = classifyLink(String(href));
        if (link) out.push(link);
      }
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(markdown, {}));
  return out;
}
