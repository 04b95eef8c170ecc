import { markdownToDocument } from '../../domain/content/document';
import { documentToMarkdown, InputNode } from '../../domain/content/document-to-markdown';

const text = (t: string, ...marks: string[]): InputNode => ({
  object: 'text',
  leaves: [{ text: t, marks: marks.map((type) => ({ object: 'mark', type })) as never }],
});
const block = (type: string, nodes: InputNode[], data?: Record<string, unknown>): InputNode => ({
  object: 'block',
  type,
  nodes,
  ...(data ? { data } : {}),
});
const inline = (type: string, nodes: InputNode[], data: Record<string, unknown>): InputNode => ({
  object: 'inline',
  type,
  nodes,
  data,
});
const doc = (...nodes: InputNode[]) => ({ object: 'document', data: {}, nodes });

type Leaf = { text: string; marks: Array<{ type: string }> };
/** The same text with the same marks, however the leaves are cut and the marks ordered. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (!value || typeof value !== 'object') return value;
  const node = value as Record<string, unknown>;
  if (node.object !== 'text') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, normalized(v)]));
  const leaves: Leaf[] = [];
  for (const leaf of node.leaves as Leaf[]) {
    const marks = leaf.marks
      .map((m) => m.type)
      .sort()
      .join();
    const last = leaves[leaves.length - 1];
    if (!leaf.text) continue;
    if (last && last.marks.map((m) => m.type).join() === marks) last.text += leaf.text;
    else leaves.push({ text: leaf.text, marks: marks ? marks.split(',').map((type) => ({ type })) : [] });
  }
  return { object: 'text', leaves };
}

describe('document to markdown', () => {
  // Each reads back (markdown -> document) as the document it was written from, and writes again as the same markdown.
  it.each([
    [
      'paragraphs, marks and a soft break',
      'Some **bold**, _italic_, ~~gone~~ and `code`.\nNext line.\n\nSecond paragraph.',
    ],
    ['nested marks', 'A **bold *and italic* text**, ~~**struck bold**~~.'],
    ['headings', '# One\n\n## Two with `code`\n\n###### Six'],
    ['lists', '- a\n- b\n  - nested\n- c\n\n3. three\n4. four'],
    ['a blockquote with a list', '> quoted\n>\n> - item'],
    ['code blocks', '```ts\nconst a = 1;\n\nconst b = "```";\n```\n\n    indented'],
    ['a table', '| A | B |\n| :--- | ---: |\n| 1 | x \\| y |'],
    [
      'links and images',
      '[page](page:abc) [site](https://example.test/a?b=1) ![alt text](file:f1 "T") <https://x.test>',
    ],
    ['a divider', 'above\n\n---\n\nbelow'],
    [
      'text that looks like syntax',
      '\\# not a heading, 1\\. not a list, \\*not bold\\*, \\[not\\](a link), a\\_b\\_c, \\<b\\>, \\&amp;, back\\\\slash, ~~~',
    ],
  ])('%s', (_name, markdown) => {
    const original = markdownToDocument(markdown);
    const written = documentToMarkdown(original);
    expect(normalized(markdownToDocument(written))).toEqual(normalized(original));
    expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  });

  it('keeps spaces outside emphasis and joins adjacent leaves into one run', () => {
    const md = documentToMarkdown(
      doc(
        block('paragraph', [
          {
            object: 'text',
            leaves: [
              { text: 'a ', marks: [] },
              { text: ' bold ', marks: [{ type: 'bold' }] },
              { text: 'both', marks: [{ type: 'bold' }, { type: 'italic' }] },
              { text: ' end', marks: [] },
            ],
          },
        ]),
      ),
    );
    expect(md).toBe('a  **bold *both*** end');
    const inWord = {
      object: 'text',
      leaves: [{ text: 'un' }, { text: 'believ', marks: [{ type: 'italic' }] }, { text: 'able' }],
    };
    const written = documentToMarkdown(
      doc(block('paragraph', [inWord]), block('paragraph', [text('bold', 'bold'), text('italic', 'italic')])),
    );
    expect(written).toBe('un*believ*able\n\n**bold**_italic_');
    expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  });

  it("reads GitBook's own nodes: refs, emoji, hints, tasks, math, images, embeds, expandables, unknown blocks", () => {
    const md = documentToMarkdown(
      doc(
        block('heading-1', [text('Title')], { id: 'title' }),
        block('paragraph', [
          text('See '),
          inline('link', [text('the page')], { ref: { kind: 'page', page: 'p1' } }),
          text(', '),
          inline('link', [text('a site')], { ref: { kind: 'url', url: 'https://example.test/x y' } }),
          text(' '),
          { object: 'inline', type: 'emoji', data: { code: '1f600' } },
          text(' and '),
          { object: 'inline', type: 'inline-math', data: { formula: 'x^2' } },
        ]),
        block('hint', [block('paragraph', [text('Careful')])], { style: 'warning' }),
        block('list-tasks', [
          block('list-item', [block('paragraph', [text('done')])], { checked: true }),
          block('list-item', [block('paragraph', [text('todo')])], { checked: false }),
        ]),
        {
          object: 'block',
          type: 'images',
          nodes: [
            {
              object: 'block',
              type: 'image',
              data: { ref: { kind: 'file', file: 'f9' } },
              fragments: [{ fragment: 'caption', nodes: [block('paragraph', [text('A caption')])] }],
            },
          ],
        },
        { object: 'block', type: 'embed', data: { url: 'https://video.test/1' } },
        {
          object: 'block',
          type: 'expandable',
          fragments: [
            { fragment: 'expandable-title', nodes: [block('paragraph', [text('More')])] },
            { fragment: 'expandable-body', nodes: [block('paragraph', [text('Hidden text')])] },
          ],
        },
        block('something-new', [block('paragraph', [text('still readable')])]),
        { object: 'block', type: 'math', data: { formula: 'E = mc^2' } },
      ),
    );
    expect(md).toBe(
      [
        '# Title',
        'See [the page](page:p1), [a site](<https://example.test/x y>) 😀 and $x^2$',
        '> Careful',
        '- [x] done\n- [ ] todo',
        '![A caption](file:f9)',
        '[https://video.test/1](https://video.test/1)',
        'More\n\nHidden text',
        'still readable',
        '$$\nE = mc^2\n$$',
      ].join('\n\n'),
    );
  });

  it('an empty document is empty markdown', () => {
    expect(documentToMarkdown(doc())).toBe('');
    expect(documentToMarkdown(doc(block('paragraph', [text('')])))).toBe('');
  });
});

describe('document to markdown in linear time', () => {
  it('long runs of spaces and blank lines in leaves, captions and table cells take no quadratic pass', () => {
    const spaces = ' '.repeat(400_000);
    const blankLines = '\n'.repeat(200_000);
    const started = Date.now();
    // each pattern replaced took minutes on these (0.5 s at 40,000 characters, growing with the square)
    const written = documentToMarkdown(
      doc(
        block('paragraph', [text(`a${spaces}b`, 'bold')]),
        block('paragraph', [text(`${blankLines}# not a heading`)]),
        block('table', [block('table-row', [block('table-cell', [block('paragraph', [text(`x${spaces}y`)])])])]),
      ) as never,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(written).toContain(`**a${spaces}b**`);
    expect(written).toContain('\\# not a heading');
    expect(written).toContain(`| x${spaces}y |`);
  });
});
