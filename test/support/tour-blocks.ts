/**
 * The tours' blocks (README's first five minutes, docs/tour.md): each `bash` block with the output recorded
 * under it, and the comparison of a recorded output with what the block printed.
 */

export interface TourBlock {
  /** 1-based line of the block's opening fence, for messages */
  line: number;
  code: string;
  /** the `text` or `json` block right after it (only blank lines between); none: the block prints nothing */
  recorded: string;
  /** 0-based lines of the recorded output's body [first, end), or where one would go: right after the block */
  recordedLines: [number, number] | null;
  /** 0-based line of the block's closing fence */
  end: number;
}

/** Stands for any text (none included) in a recorded output. */
export const OMISSION = '…';

/** The bash blocks of `markdown`, or of its section under the heading `section` (up to the next heading of that level). */
export function tourBlocks(markdown: string, section?: string): TourBlock[] {
  const lines = markdown.split('\n');
  let from = 0;
  let to = lines.length;
  if (section) {
    from = lines.indexOf(section);
    if (from < 0) throw new Error(`no heading "${section}"`);
    const level = /^#+ /.exec(section)![0];
    const next = lines.findIndex((l, i) => i > from && l.startsWith(level));
    if (next > 0) to = next;
  }
  const fences: Array<{ line: number; lang: string; body: string; end: number }> = [];
  for (let i = from; i < to; i++) {
    const open = /^```(\w*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`line ${i + 1}: a fence is not closed`);
    fences.push({ line: i + 1, lang: open[1], body: lines.slice(i + 1, end).join('\n'), end });
    i = end;
  }
  const blocks: TourBlock[] = [];
  fences.forEach((fence, k) => {
    if (fence.lang !== 'bash') return;
    const next = fences[k + 1];
    const adjacent =
      next && ['text', 'json'].includes(next.lang) && lines.slice(fence.end + 1, next.line - 1).every((l) => l === '');
    blocks.push({
      line: fence.line,
      code: fence.body,
      recorded: adjacent ? next.body : '',
      recordedLines: adjacent ? [next.line, next.end] : null,
      end: fence.end,
    });
  });
  return blocks;
}

/**
 * `markdown` with what each block printed in place of its recorded output (a `text` block added where it had
 * none and printed something): what a maintainer compares with the document to update it. A block that printed
 * what is recorded keeps its recorded text, omissions included, with this run's values: so after a green run the
 * copy is the document with every output from one run, and a block's ids agree with each other.
 */
export function withPrinted(
  markdown: string,
  blocks: readonly TourBlock[],
  printed: readonly string[],
  masks: readonly Mask[],
): string {
  const lines = markdown.split('\n');
  // from the last block up, so that earlier line numbers stay right
  for (let k = Math.min(blocks.length, printed.length) - 1; k >= 0; k--) {
    const body = rerecorded(blocks[k].recorded, printed[k], masks) ?? tidy(printed[k]);
    const at = blocks[k].recordedLines;
    if (at) lines.splice(at[0], at[1] - at[0], ...(body ? body.split('\n') : []));
    else if (body) lines.splice(blocks[k].end + 1, 0, '', '```text', ...body.split('\n'), '```');
  }
  return lines.join('\n');
}

/** A value that differs from run to run, replaced by `as` in both the recorded and the printed output. */
export interface Mask {
  name: string;
  pattern: RegExp;
  as: string;
}

/** No carriage returns (curl -i), no spaces at line ends (Temporal's tables), no blank lines at the end. */
function tidy(text: string): string {
  return text
    .replace(/\r/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\s+$/, '');
}

/** Both outputs as compared: tidied, every mask applied. */
export function normalized(text: string, masks: readonly Mask[]): string {
  let out = tidy(text);
  for (const mask of masks) out = out.replace(mask.pattern, mask.as);
  return out;
}

/**
 * Null when `printed` matches `recorded`, where each `…` of the recorded output stands for any text; otherwise
 * what differs. The recorded text is literal pieces between omissions: the first must begin the output, the last
 * end it, and each in between is found in order after the one before (the leftmost match never misses one).
 */
export function mismatch(recorded: string, printed: string, masks: readonly Mask[]): string | null {
  const want = normalized(recorded, masks);
  const got = normalized(printed, masks);
  const pieces = want.split(OMISSION);
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (pieces.length === 1) return want === got ? null : difference(want, got);
  if (!got.startsWith(first)) return `the output does not begin as recorded:\n${difference(first, got)}`;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = got.indexOf(piece, at);
    if (found < 0) return `recorded text not found after offset ${at}: ${JSON.stringify(piece)}\nprinted: ${got}`;
    at = found + piece.length;
  }
  if (!got.endsWith(last) || got.length - last.length < at)
    return `the output does not end as recorded: ${JSON.stringify(last)}\nprinted: ${got}`;
  return null;
}

/** The first line that differs, and both texts whole. */
function difference(want: string, got: string): string {
  const a = want.split('\n');
  const b = got.split('\n');
  const i = a.findIndex((line, k) => line !== b[k]);
  const at = i < 0 ? a.length : i;
  return `line ${at + 1} differs:\n  recorded: ${a[at] ?? '(none)'}\n  printed:  ${b[at] ?? '(none)'}\nrecorded:\n${want}\nprinted:\n${got}`;
}

const PLACEHOLDER = /\uE000(\d+)\uE000/g;

/**
 * `recorded` with each value a mask covers replaced by the value `printed` has at the same place, when `printed`
 * matches `recorded` (as `mismatch` compares them); null when it does not.
 */
export function rerecorded(recorded: string, printed: string, masks: readonly Mask[]): string | null {
  const spans: Array<{ mask: number; text: string }> = [];
  let marked = tidy(recorded);
  masks.forEach((mask, index) => {
    marked = marked.replace(mask.pattern, (text) => `\uE000${spans.push({ mask: index, text }) - 1}\uE000`);
  });
  const literally = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = marked
    .split(OMISSION)
    .map((piece) =>
      piece
        .split(PLACEHOLDER)
        .map((part, i) => (i % 2 ? `(?<v${part}>${masks[spans[Number(part)].mask].pattern.source})` : literally(part)))
        .join(''),
    )
    .join('[\\s\\S]*?');
  const found = new RegExp(`^${source}$`, 'u').exec(tidy(printed));
  if (!found) return null;
  return marked.replace(PLACEHOLDER, (_, k: string) => found.groups?.[`v${k}`] ?? spans[Number(k)].text);
}

/** Where a `Location` header and the body below it name different ids: the output was stitched from two runs. */
export function disagreeingLocations(output: string): string[] {
  const lines = tidy(output).split('\n');
  return lines.flatMap((line, i) => {
    const location = /^location: \S+\/([A-Za-z0-9_-]{20,21})$/i.exec(line);
    if (!location) return [];
    const body = lines.slice(i + 1).find((l) => l.startsWith('{'));
    const bodyId = body && /^\{(?:"object":"[a-z-]+",)?"id":"([^"]+)"/.exec(body)?.[1];
    return bodyId && bodyId !== location[1] ? [`Location names ${location[1]}, the body below it ${bodyId}`] : [];
  });
}
