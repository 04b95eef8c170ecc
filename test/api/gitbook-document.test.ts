/**
 * The document form answered (format=document) is GitBook's JSONDocument, and a client that sends it back
 * as it got it writes the same markdown. (That each answer validates against GitBook's document is checked by the
 * answer hook in every API test that reads format=document.)
 */

import { contentRef, presentDocument } from '../../api/presenters/gitbook-document';
import { markdownToDocument } from '../../domain/content/document';
import { documentToMarkdown } from '../../domain/content/document-to-markdown';

const MARKDOWN = [
  '## Install',
  'Read [the guide](page:abc123), [a section](page:abc123#setup), [the logo](file:f1), [the API](openapi:petstore) and [the site](https://example.test/a).',
  '![A diagram](https://example.test/d.png)',
  '| Name | Size |\n| --- | ---: |\n| **one** | 1 |\n| two | 2 |',
  '```js\nconst x = 1;\n```',
  '---',
  '1. first\n2. second',
].join('\n\n');

describe("GitBook's document form", () => {
  it('names link and image targets as content references', () => {
    expect(contentRef('page:abc')).toEqual({ kind: 'page', page: 'abc' });
    expect(contentRef('page:abc#setup')).toEqual({ kind: 'anchor', anchor: 'setup', page: 'abc' });
    expect(contentRef('#setup')).toEqual({ kind: 'anchor', anchor: 'setup' });
    expect(contentRef('file:f1')).toEqual({ kind: 'file', file: 'f1' });
    expect(contentRef('space:s1')).toEqual({ kind: 'space', space: 's1' });
    expect(contentRef('openapi:petstore')).toEqual({ kind: 'openapi', spec: 'petstore' });
    expect(contentRef('https://example.test/')).toEqual({ kind: 'url', url: 'https://example.test/' });
  });

  it('writes tables as records of cell fragments, images as inline images, every block with data', () => {
    const document = presentDocument(markdownToDocument(MARKDOWN));
    const table = document.nodes.find((n) => n.type === 'table')!;
    expect(table).toMatchObject({
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c0', 'c1'] },
        definition: {
          c0: { id: 'c0', title: 'Name', type: 'text', textAlignment: 'left' },
          c1: { id: 'c1', title: 'Size', type: 'text', textAlignment: 'right' },
        },
        records: { r0: { values: { c0: 'r0c0', c1: 'r0c1' } }, r1: { values: { c0: 'r1c0', c1: 'r1c1' } } },
      },
    });
    expect(table.fragments).toHaveLength(4);
    const image = document.nodes[2].nodes![0];
    expect(image).toEqual({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'https://example.test/d.png' }, caption: 'A diagram' },
    });
    for (const node of document.nodes) expect(node.data).toEqual(expect.any(Object));
  });

  it('reads back into the same markdown; headings deeper than 3 become level 3', () => {
    expect(documentToMarkdown(presentDocument(markdownToDocument(MARKDOWN)))).toBe(MARKDOWN);
    expect(documentToMarkdown(presentDocument(markdownToDocument('#### Deep')))).toBe('### Deep');
  });
});
