import { markdownToDocument } from '../../domain/content/document';
import { extractLinks, fitsTokenBudget, splitSections } from '../../domain/content/markdown';
import { slugOf, uniqueSlug } from '../../domain/content/slugs';

describe('markdown reading', () => {
  it('splits sections at headings, the intro titled by the page', () => {
    const sections = splitSections(
      'Guide',
      'Intro text.\n\n# Install\n\nRun `npm i`.\n\n## Use it\n\nSee more.',
      slugOf,
    );
    expect(sections).toEqual([
      { anchor: '', title: 'Guide', body: 'Intro text.' },
      { anchor: 'install', title: 'Install', body: 'Run npm i.' },
      { anchor: 'use-it', title: 'Use it', body: 'See more.' },
    ]);
  });

  it('extracts every kind of link and ignores anchors and mail', () => {
    const links = extractLinks(
      '[a](page:abc) ![i](file:f1) <https://x.io> [s](space:sp1) [o](openapi:petstore) [p](/guide/setup#x) [m](mailto:a@b) [h](#top)',
    );
    expect(links).toEqual([
      { kind: 'page', target: 'abc' },
      { kind: 'file', target: 'f1' },
      { kind: 'url', target: 'https://x.io' },
      { kind: 'space', target: 'sp1' },
      { kind: 'openapi', target: 'petstore' },
      { kind: 'page', target: 'guide/setup', byPath: true },
    ]);
  });

  it('makes slugs unique among siblings', () => {
    expect(slugOf('Hello World & Co!')).toBe('hello-world-and-co');
    expect(slugOf('!!!')).toBe('page');
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2']))).toBe('intro-3');
  });

  it("reads GitBook's hint blocks as hints around markdown, and leaves an unclosed marker as text", () => {
    const markdown =
      'Before.\n\n{% hint style="warning" %}\nMind **this** and [that](page:p1).\n\n{% hint %}\nNested.\n{% endhint %}\n{% endhint %}\n\nAfter.';
    expect(
      markdownToDocument(markdown).nodes.map((n) => (n.object === 'block' ? [n.type, n.data ?? null] : n.object)),
    ).toEqual([
      ['paragraph', null],
      ['hint', { style: 'warning' }],
      ['paragraph', null],
    ]);
    const hint = markdownToDocument(markdown).nodes[1];
    expect(
      hint.object === 'block' && hint.nodes.map((n) => (n.object === 'block' ? [n.type, n.data ?? null] : n.object)),
    ).toEqual([
      ['paragraph', null],
      ['hint', { style: 'info' }],
    ]);
    expect(extractLinks(markdown)).toEqual([{ kind: 'page', target: 'p1' }]);
    expect(splitSections('Page', markdown, slugOf)[0].body).toBe('Before.\nMind this and that.\nNested.\nAfter.');

    const unclosed = markdownToDocument('{% hint style="info" %}\nNever closed.');
    expect(unclosed.nodes).toHaveLength(1);
    expect(JSON.stringify(unclosed.nodes[0])).toContain('{% hint style=\\"info\\" %}');
    // four spaces in: code, not a hint
    expect(markdownToDocument('    {% hint %}\n    x\n    {% endhint %}').nodes[0]).toMatchObject({ type: 'code' });
  });
});

describe('markdown parses are bounded', () => {
  /** Levels of the document form, walked. */
  const depthOf = (node: { nodes?: unknown[] }): number =>
    1 + Math.max(0, ...(node.nodes ?? []).map((n) => depthOf(n as { nodes?: unknown[] })));

  it("nesting past markdown-it's maxNesting (100) is left unparsed: the document form stays shallow, links past it are not read", () => {
    // 1,000,000 characters of `> ` on one line, and lists nested 700 levels (490 KB)
    const quotes = `${'> '.repeat(499_990)}[deep](https://deep.example)`;
    const lists = Array.from({ length: 700 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    for (const markdown of [quotes, lists]) {
      expect(depthOf(markdownToDocument(markdown))).toBeLessThanOrEqual(102);
      expect(extractLinks(markdown)).toEqual([]);
    }
    // a list level is two of markdown-it's (list, item)
    expect(JSON.stringify(markdownToDocument(lists))).toContain('level 48');
    expect(JSON.stringify(markdownToDocument(lists))).not.toContain('level 50');
  });

  it('past MARKDOWN_MAX_TOKENS (250,000) a write is a 400; what was stored before reads as its text', () => {
    // 1 MB of list items made 1.5 million tokens, 300 MB of heap
    const items = '- a\n'.repeat(250_000);
    // 650 rows of 100 cells: 260,000 tokens from 130 KB
    const cells = `${'|h'.repeat(100)}|\n${'|-'.repeat(100)}|\n${`${'|a'.repeat(100)}|\n`.repeat(650)}`;
    // 333,000 emphasis delimiters: each a text token before they are paired
    const stars = '*a '.repeat(333_000);
    for (const markdown of [items, cells, stars]) {
      expect(fitsTokenBudget(markdown)).toBe(false);
      let refusal: unknown;
      try {
        extractLinks(markdown);
      } catch (err) {
        refusal = err;
      }
      expect(refusal).toMatchObject({
        status: 400,
        message: 'markdown: must not parse into more than 250000 markdown tokens (blocks, inlines and their ends)',
      });
      expect(markdownToDocument(markdown).nodes).toEqual([
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: markdown, marks: [] }] }],
        },
      ]);
      expect(splitSections('Page', markdown, slugOf)).toEqual([{ anchor: '', title: 'Page', body: markdown }]);
    }
    // a page of prose as large as the API takes is far within it
    expect(fitsTokenBudget('Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(17_000))).toBe(true);
  });

  it('unclosed hint markers are searched within a budget: 90,000 of them parse at once, a hint below still reads', () => {
    // each searched down to the end, again from every line of the paragraph they make: a 1 MB page took minutes
    const unclosed = '{% hint %}\n'.repeat(90_000);
    const started = Date.now();
    expect(markdownToDocument(unclosed).nodes).toHaveLength(1);
    const later = markdownToDocument(
      `${'para\n'.repeat(80_000)}\n{% hint style="warning" %}\nInside.\n{% endhint %}\n`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(later.nodes[1]).toMatchObject({ type: 'hint', data: { style: 'warning' } });
  });
});
