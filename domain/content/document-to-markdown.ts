/**
 * The markdown of a structured document: the inverse of `markdownToDocument` (document.ts) for the
 * nodes it builds, and a best effort for the rest of GitBook's document model (hints, images, embeds,
 * files, math, expandables, tabs and other containers), which markdown cannot hold exactly: their text
 * is kept so it can still be read and searched. Text is escaped so it reads back as the same text.
 */
/** A node as GitBook's document shape allows it (ours is a subset); unknown fields are ignored. */
export interface InputNode {
  object: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: InputNode[];
  leaves?: Array<{ text: string; marks?: Array<{ type: string }> }>;
  fragments?: Array<{ fragment?: string; type?: string; nodes: InputNode[] }>;
}

export interface InputDocument {
  nodes: InputNode[];
}

type Leaf = NonNullable<InputNode['leaves']>[number];

const DELIMITERS: Record<string, string> = { bold: '**', italic: '*', strikethrough: '~~' };
const MARK_ORDER = Object.keys(DELIMITERS);

/**
 * Backslash-escapes what markdown would read as syntax (CommonMark reads any escaped ASCII punctuation
 * back as itself, so escaping more than needed is harmless); at a line start also block markers.
 */
function escapeText(text: string): string {
  // the indentation is the line's own ([^\S\n\r\u2028\u2029]): `\s*` ran across lines, quadratic on 40,000 blank ones
  return text
    .replace(/[\\`*_[\]<~]|&(?=#?\w+;)/g, '\\$&')
    .replace(/^([^\S\n\r\u2028\u2029]*)([#>+=-])/gm, '$1\\$2')
    .replace(/^([^\S\n\r\u2028\u2029]*\d+)([.)])/gm, '$1\\$2');
}

/**
 * Every run of whitespace that holds a line break becomes one space. One greedy `\s+` per run: the
 * pattern it replaces (`\s*\n\s*`) backtracked through every run without a break, quadratic in its length.
 */
function oneLine(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^`|`$|^ .* $/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Leaves with marks: delimiters open and close as the marks change from leaf to leaf, so adjacent
 * leaves share one emphasis run; spaces at a run's edge move outside its delimiters (CommonMark does
 * not read `** a **` as bold).
 */
function renderLeaves(leaves: Leaf[]): string {
  let out = '';
  let space = ''; // whitespace not written yet: it goes after closing and before opening delimiters
  const open: Array<{ type: string; delimiter: string }> = [];
  const close = (count: number) => {
    while (open.length > count) out += open.pop()!.delimiter;
  };
  for (const leaf of leaves) {
    // trim's whitespace is `\s`'s; the pattern `^(\s*)([\s\S]*?)(\s*)$` was quadratic in a run of spaces inside
    const core = leaf.text.trim();
    const lead = core ? leaf.text.slice(0, leaf.text.length - leaf.text.trimStart().length) : leaf.text;
    const trail = core ? leaf.text.slice(lead.length + core.length) : '';
    space += lead;
    if (!core) continue;
    const types = new Set((leaf.marks ?? []).map((m) => m.type));
    const wanted = MARK_ORDER.filter((t) => types.has(t));
    let keep = 0;
    while (keep < open.length && keep < wanted.length && open[keep].type === wanted[keep]) keep++;
    close(keep);
    out += space;
    for (const type of wanted.slice(keep)) {
      // `*` works inside words; next to another `*` run it would merge with it, so italic there is `_`
      const delimiter = type === 'italic' && out.endsWith('*') ? '_' : DELIMITERS[type];
      out += delimiter;
      open.push({ type, delimiter });
    }
    out += types.has('code') || types.has('keyboard') ? codeSpan(core) : escapeText(core);
    space = trail;
  }
  close(0);
  return out + space;
}

/** A GitBook content reference as a link target of our markdown (see the link syntax in domain/content/markdown.ts). */
function refTarget(ref: unknown): string {
  if (!ref || typeof ref !== 'object') return '';
  const r = ref as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
  switch (r.kind) {
    case 'url':
      return str('url');
    case 'page':
      return `page:${str('page')}`;
    case 'file':
      return `file:${str('file')}`;
    case 'space':
      return `space:${str('space')}`;
    case 'openapi':
      return `openapi:${str('spec')}`;
    case 'anchor':
      return `${str('page') ? `page:${str('page')}` : ''}#${str('anchor')}`;
    default:
      return '';
  }
}

function linkTarget(data: Record<string, unknown> | undefined, ...keys: string[]): string {
  for (const key of keys) {
    const value = data?.[key];
    if (typeof value === 'string') return value;
    const target = refTarget(value);
    if (target) return target;
  }
  return '';
}

function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : url;
}

function emojiOf(code: unknown): string {
  if (typeof code !== 'string' || !/^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/i.test(code)) return '';
  try {
    return String.fromCodePoint(...code.split('-').map((hex) => parseInt(hex, 16)));
  } catch {
    return '';
  }
}

function str(data: Record<string, unknown> | undefined, key: string): string {
  const value = data?.[key];
  return typeof value === 'string' ? value : '';
}

/** Consecutive text nodes as one, so their emphasis runs are written together. */
function joinTextNodes(nodes: InputNode[]): InputNode[] {
  const out: InputNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.object === 'text' && last?.object === 'text')
      out[out.length - 1] = { object: 'text', leaves: [...(last.leaves ?? []), ...(node.leaves ?? [])] };
    else out.push(node);
  }
  return out;
}

/** Inline content; `singleLine` for headings and table cells, where a line break would end the block. */
function renderInlines(nodes: InputNode[] | undefined, singleLine = false): string {
  const out = joinTextNodes(nodes ?? [])
    .map((node): string => {
      if (node.object === 'text') return renderLeaves(node.leaves ?? []);
      const data = node.data;
      switch (node.type) {
        case 'link':
        case 'button': {
          const label = node.type === 'button' ? escapeText(str(data, 'label')) : renderInlines(node.nodes, singleLine);
          return `[${label}](${destination(linkTarget(data, 'href', 'ref'))})`;
        }
        case 'image':
        case 'inline-image': {
          const title = str(data, 'title');
          const alt = str(data, 'alt') || str(data, 'caption');
          return `![${escapeText(alt)}](${destination(linkTarget(data, 'src', 'ref'))}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`;
        }
        case 'emoji':
          return emojiOf(data?.code);
        case 'inline-math':
          return str(data, 'formula') ? `$${str(data, 'formula')}$` : '';
        case 'expression':
          return str(data, 'expression') ? `{{ ${str(data, 'expression')} }}` : '';
        case 'mention': {
          const target = linkTarget(data, 'ref');
          return target ? `[${escapeText(target)}](${destination(target)})` : '';
        }
        default:
          // annotations and anything newer: their text
          return renderInlines(node.nodes, singleLine);
      }
    })
    .join('');
  return singleLine ? oneLine(out) : out;
}

function indent(text: string, prefix: string, first = prefix): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first : line ? prefix : prefix.trimEnd()) + line)
    .join('\n');
}

function renderList(node: InputNode): string {
  const ordered = node.type === 'list-ordered';
  const start = ordered && typeof node.data?.start === 'number' ? node.data.start : 1;
  const items = (node.nodes ?? []).map((item, i) => {
    const checked = item.data?.checked;
    const marker = ordered ? `${start + i}. ` : '- ';
    const task = node.type === 'list-tasks' ? `[${checked ? 'x' : ' '}] ` : '';
    const body = renderBlocks(item.type === 'list-item' ? item.nodes : [item]);
    return indent(task + body, ' '.repeat(marker.length), marker);
  });
  const loose = (node.nodes ?? []).some((item) => (item.nodes ?? []).length > 1);
  return items.join(loose ? '\n\n' : '\n');
}

/**
 * GitBook's table (what answers with format=document carry): a text column per `view.columns` entry titled by its
 * definition, a row per record in `orderIndex` order, each cell the fragment its value names. Null when the node
 * is not one.
 */
function gitbookTableCells(node: InputNode): { cells: string[][]; aligns: string[] } | null {
  const data = node.data ?? {};
  const view = data.view as { columns?: unknown } | undefined;
  const definition = data.definition as Record<string, { title?: unknown; textAlignment?: unknown }> | undefined;
  const records = data.records as
    | Record<string, { orderIndex?: unknown; values?: Record<string, unknown> }>
    | undefined;
  if (!Array.isArray(view?.columns) || !definition || typeof definition !== 'object' || !records) return null;
  const columns = view.columns.filter((c): c is string => typeof c === 'string');
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const cell = (value: unknown) =>
    typeof value === 'string' && fragments.has(value)
      ? oneLine(renderBlocks(fragments.get(value))).replace(/\|/g, '\\|')
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string'
        ? escapeText(String(value))
        : '';
  const ordered = Object.values(records).sort((a, b) => String(a.orderIndex).localeCompare(String(b.orderIndex)));
  return {
    cells: [
      columns.map((c) => escapeText(String(definition[c]?.title ?? ''))),
      ...ordered.map((record) => columns.map((c) => cell(record.values?.[c]))),
    ],
    // GitBook requires an alignment and says left for none: a plain column
    aligns: columns.map((c) =>
      definition[c]?.textAlignment === 'left' ? '' : String(definition[c]?.textAlignment ?? ''),
    ),
  };
}

function renderTable(node: InputNode): string {
  const gitbook = gitbookTableCells(node);
  const rows = (node.nodes ?? []).filter((row) => row.type === 'table-row');
  if (!gitbook && !rows.length) return renderFragments(node) || renderBlocks(node.nodes);
  const cells =
    gitbook?.cells ??
    rows.map((row) => (row.nodes ?? []).map((cell) => oneLine(renderBlocks(cell.nodes)).replace(/\|/g, '\\|')));
  const width = Math.max(...cells.map((row) => row.length));
  const aligns = gitbook?.aligns ?? (rows[0].nodes ?? []).map((cell) => str(cell.data, 'align'));
  const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`;
  const rule = Array.from(
    { length: width },
    (_, i) => ({ left: ':---', center: ':---:', right: '---:' })[aligns[i]] ?? '---',
  );
  return [line(cells[0]), `| ${rule.join(' | ')} |`, ...cells.slice(1).map(line)].join('\n');
}

function renderCode(node: InputNode): string {
  const lines = (node.nodes ?? []).map((line) =>
    (line.nodes ?? [])
      .map((n) => (n.object === 'text' ? (n.leaves ?? []).map((l) => l.text).join('') : renderInlines([n])))
      .join(''),
  );
  const text = lines.join('\n');
  const longest = Math.max(2, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((run) => run.trim().length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${str(node.data, 'syntax')}\n${text}\n${fence}`;
}

function renderFragments(node: InputNode): string {
  return (node.fragments ?? [])
    .map((f) => renderBlocks(f.nodes))
    .filter(Boolean)
    .join('\n\n');
}

function renderBlock(node: InputNode): string {
  if (node.object !== 'block') return renderInlines([node]);
  const data = node.data;
  const heading = /^heading-([1-6])$/.exec(node.type ?? '');
  if (heading) return `${'#'.repeat(Number(heading[1]))} ${renderInlines(node.nodes, true)}`;
  switch (node.type) {
    case 'paragraph':
      return renderInlines(node.nodes);
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return renderList(node);
    case 'blockquote':
    case 'hint':
      return indent(renderBlocks(node.nodes), '> ');
    case 'code':
      return renderCode(node);
    case 'divider':
      return '---';
    case 'table':
      return renderTable(node);
    case 'math':
      return str(data, 'formula') ? `$$\n${str(data, 'formula')}\n$$` : '';
    case 'image': {
      const caption = oneLine(renderFragments(node));
      return `![${caption || escapeText(str(data, 'alt'))}](${destination(linkTarget(data, 'ref'))})`;
    }
    case 'file':
    case 'embed':
    case 'content-ref': {
      const target = linkTarget(data, 'url', 'ref');
      return target ? `[${escapeText(target)}](${destination(target)})` : '';
    }
    default:
      // containers (images, expandable, tabs, stepper, columns, if, …) and anything newer: their content
      return [renderBlocks(node.nodes), renderFragments(node)].filter(Boolean).join('\n\n');
  }
}

function renderBlocks(nodes: InputNode[] | undefined): string {
  return (nodes ?? [])
    .map(renderBlock)
    .filter((text) => text !== '')
    .join('\n\n');
}

/** Markdown of a document: blocks separated by blank lines, no trailing newline. */
export function documentToMarkdown(document: InputDocument): string {
  return renderBlocks(document.nodes).trim();
}
