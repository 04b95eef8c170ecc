/**
 * What of a page is sent for translation, and how the answer is written back: only text. A page's
 * markdown is parsed with the service's markdown-it set-up; each run of inline content (a paragraph,
 * a heading, a table cell) becomes one segment, in which everything that is not prose is a kept span
 * the provider sees as a placeholder: inline code, link and image targets, autolinks and bare URLs,
 * `{{ variables }}` and `{% tags %}`, entities and escapes. Code blocks, front matter, block markers
 * and reference definitions are never inside a segment. The answer replaces exactly the source range of
 * its run, so every byte outside the runs is kept. A translated run that lost or duplicated a
 * placeholder, or whose code, links or images parse differently, is kept untranslated.
 */
import type MarkdownIt from 'markdown-it';
import { linkifyMatches, parseInlineMarkdown, parseMarkdown } from '../content/markdown';

type Token = MarkdownIt.Token;

/** Text to translate, or the index of a kept span (a placeholder). */
export type SegmentPart = string | number;
export type Segment = SegmentPart[];

/** What a run of text sends, and how its translation is written back. */
export interface TranslatableText {
  segments: Segment[];
  /** Words of the text parts of the segments: what the provider is sent. */
  words: number;
  /** The text with each segment replaced by its translation (same order as `segments`). */
  render(translated: Segment[]): string;
}

const FRONT_MATTER = /^---[ \t]*\n[\s\S]*?\n---[ \t]*(?:\n|$)/;
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const LETTER = /\p{L}/u;

/** Spans kept as they are, tried in order at each position (sticky). */
const KEPT_SPANS: RegExp[] = [
  /\\[!-/:-@[-`{-~]/y, // an escaped punctuation character
  /<!--[\s\S]*?-->/y,
  /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/y, // autolink
  /<[^\s<>@]+@[^\s<>]+>/y, // e-mail autolink
  /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/y, // an HTML tag, kept as written
  /\{\{[\s\S]*?\}\}/y, // {{ variables.NAME }} and other expressions
  /\{%[\s\S]*?%\}/y, // GitBook tags: {% hint %}, {% embed %} ...
  /\$\$[\s\S]+?\$\$/y, // inline math
  /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y,
  /\]\[[^\]\n]*\]/y, // the label of a reference link
  /!?\[|\]/y, // brackets of links and images (their text is translated)
];
const HARD_BREAK = /(?: {2,}|\\)\n[ \t]*/y;
const SOFT_BREAK = /[ \t]*\n[ \t]*/y;
const BACKTICKS = /`+/y;

function matchAt(re: RegExp, text: string, at: number): string | null {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? m[0] : null;
}

/** The end of a link destination and title opened by `](` at `at`, or -1 when it does not close. */
function destinationEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at + 2; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '<' && i === at + 2) {
      const close = text.indexOf('>', i);
      if (close < 0) return -1;
      i = close;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return i + 1;
      depth--;
    } else if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (c === '\n' && text[i + 1] === '\n') return -1;
  }
  return -1;
}

class PartsBuilder {
  readonly parts: Segment = [];
  readonly kept: string[] = [];

  text(s: string): void {
    if (!s) return;
    const last = this.parts.length - 1;
    if (typeof this.parts[last] === 'string') this.parts[last] += s;
    else this.parts.push(s);
  }

  keep(s: string): void {
    const last = this.parts.length - 1;
    if (typeof this.parts[last] === 'number') this.kept[this.kept.length - 1] += s;
    else {
      this.parts.push(this.kept.length);
      this.kept.push(s);
    }
  }

  /** Text in which the parser's linkify would find links: those links are kept. */
  prose(s: string): void {
    let from = 0;
    for (const m of linkifyMatches(s)) {
      this.text(s.slice(from, m.index));
      this.keep(s.slice(m.index, m.lastIndex));
      from = m.lastIndex;
    }
    this.text(s.slice(from));
  }
}

/** Splits a run of inline markdown into text and kept spans; line breaks inside it become spaces. */
function scanInline(source: string): PartsBuilder {
  const out = new PartsBuilder();
  let prose = '';
  const keep = (s: string) => {
    out.prose(prose);
    prose = '';
    out.keep(s);
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\n' || c === ' ' || c === '\\') {
      const hard = matchAt(HARD_BREAK, source, i);
      if (hard) {
        keep(hard.startsWith('\\') ? '\\\n' : '  \n');
        i += hard.length;
        continue;
      }
      const soft = matchAt(SOFT_BREAK, source, i);
      if (soft) {
        prose += ' ';
        i += soft.length;
        continue;
      }
    }
    if (c === '`') {
      const run = matchAt(BACKTICKS, source, i)!;
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = i + run.length;
      const end = close.exec(source);
      const span = end ? source.slice(i, end.index + run.length) : run;
      keep(span);
      i += span.length;
      continue;
    }
    if (c === ']' && source[i + 1] === '(') {
      const end = destinationEnd(source, i);
      if (end > 0) {
        keep(source.slice(i, end));
        i = end;
        continue;
      }
    }
    const span = '\\<{$&[]!'.includes(c)
      ? KEPT_SPANS.map((re) => matchAt(re, source, i)).find((m) => m !== null)
      : null;
    if (span) {
      keep(span);
      i += span.length;
      continue;
    }
    prose += c;
    i++;
  }
  out.prose(prose);
  return out;
}

const countWords = (parts: Segment): number =>
  parts.reduce<number>((n, p) => n + (typeof p === 'string' ? (p.match(WORD)?.length ?? 0) : 0), 0);
const hasLetters = (parts: Segment): boolean => parts.some((p) => typeof p === 'string' && LETTER.test(p));

/** The translated parts when they hold each placeholder exactly once; otherwise null. */
function checkedParts(translated: Segment | undefined, keptCount: number): Segment | null {
  if (!translated) return null;
  const seen = new Set<number>();
  for (const p of translated) {
    if (typeof p !== 'number') continue;
    if (p < 0 || p >= keptCount || seen.has(p)) return null;
    seen.add(p);
  }
  return seen.size === keptCount ? translated : null;
}

interface Run {
  start: number;
  end: number;
  source: string;
  parts: Segment;
  kept: string[];
  /** What starts a continuation line of the run (its block's markers and indentation). */
  continuation: string;
  cell: boolean;
}

function renderRun(run: Run, parts: Segment): string {
  return parts
    .map((p) => {
      if (typeof p === 'number') {
        const kept = run.kept[p];
        return kept.endsWith('\n') ? kept + run.continuation : kept;
      }
      const text = p.replace(/\s*\n\s*/g, ' ');
      return run.cell ? text.replace(/(?<!\\)\|/g, '\\|') : text;
    })
    .join('');
}

/** What must not change in a run: its code spans, link targets and image sources. */
function signature(text: string, env: Record<string, unknown>): string {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'code_inline') out.push(`code:${t.content}`);
      else if (t.type === 'link_open') out.push(`link:${t.attrGet('href')}`);
      else if (t.type === 'image') out.push(`image:${t.attrGet('src')}`);
      if (t.children) walk(t.children);
    }
  };
  walk(parseInlineMarkdown(text, env));
  return out.sort().join('\n');
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Where each line of an inline token's content sits in the source. Paragraph lines (setext headings
 * too) end their source line, trailing spaces aside; an ATX heading's text follows its `#` marker; a
 * table cell is found after the previous cell of its row. Null when a line cannot be found (a tab
 * the parser expanded): the run is then left as it is.
 */
function locate(
  body: string,
  starts: number[],
  token: Token,
  kind: 'lines' | 'atx' | 'cell',
  line: number,
  cursor: number,
): { start: number; end: number; continuation: string } | null {
  const lines = token.content.split('\n');
  let start = -1;
  let end = -1;
  let continuation = '';
  for (let k = 0; k < lines.length; k++) {
    const from = starts[line + k];
    if (from === undefined) return null;
    const to = starts[line + k + 1] === undefined ? body.length : starts[line + k + 1] - 1;
    const sourceLine = body.slice(from, to);
    const content = lines[k];
    let at: number;
    if (kind === 'cell') at = body.indexOf(content, Math.max(from, cursor));
    else if (kind === 'atx')
      at = body.indexOf(content, from + (/^[ \t]*#{1,6}(?:[ \t]+|$)/.exec(sourceLine)?.[0].length ?? 0));
    else if (sourceLine.endsWith(content)) at = to - content.length;
    else if (sourceLine.trimEnd().endsWith(content)) at = from + sourceLine.trimEnd().length - content.length;
    else at = -1;
    if (at < from || at + content.length > to) return null;
    if (k === 0) start = at;
    if (k === 1) continuation = body.slice(from, at);
    end = at + content.length;
  }
  return { start, end, continuation };
}

/** The runs of inline content of a markdown body, in source order. */
function inlineRuns(body: string, env: Record<string, unknown>): Run[] {
  const tokens = parseMarkdown(body, env);
  const starts = lineStarts(body);
  const runs: Run[] = [];
  let row: { line: number; cursor: number } | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'tr_open' && t.map) row = { line: t.map[0], cursor: starts[t.map[0]] };
    if (t.type !== 'inline' || !t.content) continue;
    const opener = tokens[i - 1];
    let where: ReturnType<typeof locate> = null;
    let cell = false;
    if (opener?.type === 'th_open' || opener?.type === 'td_open') {
      if (!row) continue;
      cell = true;
      where = locate(body, starts, t, 'cell', row.line, row.cursor);
      if (where) row.cursor = where.end;
    } else if ((opener?.type === 'paragraph_open' || opener?.type === 'heading_open') && t.map) {
      const atx = opener.type === 'heading_open' && opener.markup.startsWith('#');
      where = locate(body, starts, t, atx ? 'atx' : 'lines', t.map[0], 0);
    }
    if (!where) continue;
    const { parts, kept } = scanInline(t.content);
    if (!hasLetters(parts)) continue;
    runs.push({ ...where, source: t.content, parts, kept, cell });
  }
  return runs;
}

/** The text of a page's markdown, to be translated run by run. */
export function markdownText(markdown: string): TranslatableText {
  const normalized = markdown.replace(/\r\n?/g, '\n');
  const front = FRONT_MATTER.exec(normalized)?.[0] ?? '';
  const body = normalized.slice(front.length);
  const env: Record<string, unknown> = {};
  const runs = inlineRuns(body, env);
  return {
    segments: runs.map((r) => r.parts),
    words: runs.reduce((n, r) => n + countWords(r.parts), 0),
    render(translated) {
      let out = '';
      let from = 0;
      runs.forEach((run, i) => {
        const parts = checkedParts(translated[i], run.kept.length);
        let text = parts ? renderRun(run, parts) : body.slice(run.start, run.end);
        if (parts && signature(text, env) !== signature(run.source, env)) text = body.slice(run.start, run.end);
        out += body.slice(from, run.start) + text;
        from = run.end;
      });
      return front + out + body.slice(from);
    },
  };
}

/** A title or description: plain text, where only `{{ expressions }}` are kept. */
export function plainText(text: string): TranslatableText {
  const out = new PartsBuilder();
  let from = 0;
  for (const m of text.matchAll(/\{\{[\s\S]*?\}\}/g)) {
    out.text(text.slice(from, m.index));
    out.keep(m[0]);
    from = m.index! + m[0].length;
  }
  out.text(text.slice(from));
  const translatable = hasLetters(out.parts);
  return {
    segments: translatable ? [out.parts] : [],
    words: translatable ? countWords(out.parts) : 0,
    render(translated) {
      const parts = translatable ? checkedParts(translated[0], out.kept.length) : null;
      if (!parts) return text;
      return parts.map((p) => (typeof p === 'number' ? out.kept[p] : p.replace(/\s*\n\s*/g, ' '))).join('');
    },
  };
}
