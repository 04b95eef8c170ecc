import { markdownToDocument } from '../../domain/content/document';
import { extractLinks, splitSections } from '../../domain/content/markdown';
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
