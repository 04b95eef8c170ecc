/**
 * GitBook's hint blocks in markdown, a markdown-it block rule:
 *
 *   {% hint style="warning" %}
 *   Markdown, **as anywhere else**.
 *   {% endhint %}
 *
 * The content between the markers is parsed as markdown between `hint_open` (attribute `style`:
 * info, success, warning or danger) and `hint_close` tokens. An opening marker without its closing
 * one stays ordinary text.
 */
import type MarkdownIt from 'markdown-it';

const OPEN = /^\{%\s*hint(?:\s+style=["']?(info|success|warning|danger)["']?)?\s*%\}\s*$/;
const CLOSE = /^\{%\s*endhint\s*%\}\s*$/;

function lineText(state: MarkdownIt.StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
}

/**
 * Lines the closing-marker searches of one parse may visit together. Each opening marker searches down to
 * its close, and a paragraph tries the rule again on each of its lines, so unclosed markers made a parse
 * quadratic (8,000 lines took 2 s, a 1 MB page minutes); past the budget (~0.1 s) an opening marker stays text.
 */
const SEARCH_BUDGET = 1_000_000;
/** Lines searched so far, per parse (markdown-it makes one block state per parse). */
const searched = new WeakMap<MarkdownIt.StateBlock, number>();

/** The line of the marker closing the hint opened on `startLine`, nested hints counted; -1 if none. */
function closingLine(state: MarkdownIt.StateBlock, startLine: number, endLine: number): number {
  let visits = searched.get(state) ?? 0;
  let depth = 1;
  try {
    for (let line = startLine + 1; line < endLine; line++) {
      if (++visits > SEARCH_BUDGET) return -1;
      // a line indented less than the block that holds the hint ends that block, and the search
      if (state.sCount[line] < state.blkIndent && state.bMarks[line] + state.tShift[line] < state.eMarks[line])
        return -1;
      const text = lineText(state, line);
      if (OPEN.test(text)) depth++;
      else if (CLOSE.test(text) && --depth === 0) return line;
    }
    return -1;
  } finally {
    searched.set(state, visits);
  }
}

function hintRule(state: MarkdownIt.StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false; // an indented code block
  const open = OPEN.exec(lineText(state, startLine));
  if (!open) return false;
  const close = closingLine(state, startLine, endLine);
  if (close < 0) return false;
  if (silent) return true;

  const lineMax = state.lineMax;
  const opening = state.push('hint_open', 'div', 1);
  opening.block = true;
  opening.attrSet('style', open[1] ?? 'info');
  opening.map = [startLine, close + 1];
  state.lineMax = close;
  state.md.block.tokenize(state, startLine + 1, close);
  state.lineMax = lineMax;
  state.push('hint_close', 'div', -1).block = true;
  state.line = close + 1;
  return true;
}

export function hintBlocks(md: MarkdownIt.MarkdownIt): void {
  md.block.ruler.before('fence', 'hint', hintRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
}
