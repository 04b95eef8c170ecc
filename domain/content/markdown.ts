/** What the service reads out of page markdown: sections split at headings, and links. */
import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

import { badRequest } from '../errors';
import { hintBlocks } from './hints';
import type { ExtractedLink } from './model';

/** markdown-it's own bound (its default, stated): blocks and inlines nested deeper are left unparsed, as text or not at all. */
export const MARKDOWN_MAX_NESTING = 100;
/**
 * Tokens one parse may make (blocks, inlines and their closings). Each costs ~200 bytes of heap, and a
 * token can cost a byte of text: 1 MB of `- a` lines or of table cells made 1.5 to 1.9 million, 300 to
 * 350 MB. 250,000 (~50 MB) holds a 1 MB page of prose, or lists of 30-character items.
 */
export const MARKDOWN_MAX_TOKENS = 250_000;

/** A page's markdown, at most (the API's rule for every write; imports keep to it too). */
export const PAGE_MARKDOWN_MAX_CHARACTERS = 1_000_000;

/** A parse reached MARKDOWN_MAX_TOKENS; what it made so far is dropped. */
export class MarkdownTooLarge extends Error {
  constructor() {
    super(`must not parse into more than ${MARKDOWN_MAX_TOKENS} markdown tokens (blocks, inlines and their ends)`);
  }
}

/** Tokens the parse under way may still make (parses are synchronous: one at a time). */
let tokensLeft = Number.POSITIVE_INFINITY;
function spend(): void {
  if (--tokensLeft < 0) throw new MarkdownTooLarge();
}

/**
 * Makes every parse of `md` count its tokens (block and inline pushes, and the tokens core rules such as
 * linkify make) and stop with MarkdownTooLarge past MARKDOWN_MAX_TOKENS, so memory stays bounded whatever
 * the text; nesting is bounded at MARKDOWN_MAX_NESTING.
 */
export function boundedMarkdown(md: MarkdownIt.MarkdownIt): MarkdownIt.MarkdownIt {
  md.set({ maxNesting: MARKDOWN_MAX_NESTING });
  const BlockState = md.block.State;
  md.block.State = class extends BlockState {
    override push(type: string, tag: string, nesting: -1 | 0 | 1): Token {
      spend();
      return super.push(type, tag, nesting);
    }
  };
  const InlineState = md.inline.State;
  md.inline.State = class extends InlineState {
    override push(type: string, tag: string, nesting: -1 | 0 | 1): Token {
      spend();
      return super.push(type, tag, nesting);
    }
    override pushPending(): Token {
      spend();
      return super.pushPending();
    }
  };
  const CoreState = md.core.State;
  // each core state carries its Token class as an own property
  const CoreToken = new CoreState('', md, {}).Token;
  class CountedToken extends CoreToken {
    constructor(type: string, tag: string, nesting: -1 | 0 | 1) {
      spend();
      super(type, tag, nesting);
    }
  }
  md.core.State = class extends CoreState {
    constructor(src: string, parser: MarkdownIt.MarkdownIt, env: MarkdownIt.Env) {
      super(src, parser, env);
      this.Token = CountedToken;
    }
  };
  const within =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      tokensLeft = MARKDOWN_MAX_TOKENS;
      try {
        return run(...args);
      } finally {
        tokensLeft = Number.POSITIVE_INFINITY;
      }
    };
  md.parse = within(md.parse.bind(md));
  md.parseInline = within(md.parseInline.bind(md));
  return md;
}

const md = boundedMarkdown(new MarkdownIt({ html: false, linkify: true }).use(hintBlocks));
// We only read links, never render them: accept `file:` references that markdown-it rejects by default.
md.validateLink = (url: string) => !/^(javascript|vbscript|data):/i.test(url.trim());

/**
 * The token stream of the markdown, parsed as the link extractor parses it (for the document form of a
 * page); `env` receives its reference definitions, for parseInlineMarkdown. MarkdownTooLarge past the budget.
 */
export function parseMarkdown(markdown: string, env: Record<string, unknown> = {}): Token[] {
  return md.parse(markdown, env);
}

/** Whether the markdown parses within MARKDOWN_MAX_TOKENS (so a write of it is taken). */
export function fitsTokenBudget(markdown: string): boolean {
  try {
    md.parse(markdown, {});
    return true;
  } catch (err) {
    if (err instanceof MarkdownTooLarge) return false;
    throw err;
  }
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

/**
 * Sections of a page: the text before the first heading (titled by the page, kept even when empty so the
 * title is searchable), then one per heading. A page past the token budget (stored before it) is one
 * section of its text.
 */
export function splitSections(pageTitle: string, markdown: string, anchorOf: (title: string) => string): Section[] {
  let tokens: Token[];
  try {
    tokens = md.parse(markdown, {});
  } catch (err) {
    if (err instanceof MarkdownTooLarge) return [{ anchor: '', title: pageTitle, body: markdown }];
    throw err;
  }
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

/** Every link and image in the markdown, in document order; every version written is read here, so past the token budget it is a 400. */
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
  try {
    walk(md.parse(markdown, {}));
  } catch (err) {
    if (err instanceof MarkdownTooLarge) throw badRequest(`markdown: ${err.message}`);
    throw err;
  }
  return out;
}
