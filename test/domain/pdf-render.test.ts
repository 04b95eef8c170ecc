/** The PDF renderer on manuscripts made here, read back with pdf.js: what breaks across sheets, long contents, odd text. */
import { promises as fs } from 'fs';
import * as path from 'path';
import { drawable } from '../../domain/pdf/fonts';
import type { PdfLimits } from '../../domain/pdf/manuscript';
import {
  type ManuscriptHead,
  type ManuscriptImage,
  type ManuscriptPage,
  ManuscriptWriter,
  openManuscript,
} from '../../domain/pdf/manuscript-file';
import { renderPdf } from '../../domain/pdf/render';
import { withTempDir } from '../../platform/storage/temp-dir';
import { readPdf } from '../support/pdf';

type Manuscript = ManuscriptHead & { pages: ManuscriptPage[]; images: Record<string, ManuscriptImage> };

function manuscript(pages: Array<Partial<ManuscriptPage> & { markdown: string }>): Manuscript {
  return {
    title: 'Space',
    subtitle: 'Change request #1',
    scope: null,
    revisionId: 'r1',
    generatedAt: '2026-01-01T00:00:00.000Z',
    pages: pages.map((p, i) => ({
      id: `p${i}`,
      title: `Page ${i}`,
      description: null,
      depth: 0,
      path: `page-${i}`,
      ...p,
    })),
    images: {},
  };
}

const NO_LIMITS = { sheets: 100_000, bytes: 1024 ** 3 };

/**
 * Writes the manuscript as the collect step does (or, `whole`, as one JSON document, as releases before the lines
 * did), renders it from that file as the render step does, and reads the PDF back.
 */
const renderFile = (m: Manuscript, limits: PdfLimits = NO_LIMITS, whole = false) =>
  withTempDir('pdf-render-test-', async (dir) => {
    const { pages, images, ...head } = m;
    const file = path.join(dir, 'manuscript.jsonl');
    if (whole) await fs.writeFile(file, JSON.stringify(m));
    else {
      const out = new ManuscriptWriter(file);
      await out.write({ head });
      for (const page of pages) await out.write({ page });
      await out.write({ images });
      await out.close();
    }
    const pdfFile = path.join(dir, 'out.pdf');
    const rendered = await renderPdf(
      await openManuscript(file),
      { limits, loadImage: () => Promise.reject(new Error('no images here')) },
      pdfFile,
    );
    const bytes = await fs.readFile(pdfFile);
    expect(bytes.length).toBe(rendered.bytes);
    return { ...rendered, bytes };
  });

const render = (m: Manuscript, whole = false) =>
  renderFile(m, NO_LIMITS, whole).then(async (r) => ({ ...r, pdf: await readPdf(r.bytes) }));

describe('PDF renderer', () => {
  it('continues a long code block and a long table on the next sheets, repeating the table header', async () => {
    const code = Array.from({ length: 90 }, (_, i) => `line ${i + 1}`).join('\n');
    const table = [
      '| Name | Value |',
      '|---|---|',
      ...Array.from({ length: 70 }, (_, i) => `| key${i + 1} | value ${i + 1} |`),
    ].join('\n');
    const { pdf, pageCount } = await render(manuscript([{ markdown: `\`\`\`\n${code}\n\`\`\`\n\n${table}\n` }]));
    expect(pageCount).toBe(pdf.sheets.length);
    const body = pdf.sheets.slice(2);
    const text = body.join('\n');
    for (let i = 1; i <= 90; i++) expect(text).toContain(`line ${i}\n`);
    for (let i = 1; i <= 70; i++) expect(text).toMatch(new RegExp(`key${i}\\s+value ${i}\\n`));
    const sheetsWithRows = body.filter((s) => /key\d+/.test(s));
    expect(sheetsWithRows.length).toBeGreaterThan(1);
    for (const sheet of sheetsWithRows) expect(sheet).toMatch(/Name\s+Value\n/);
  });

  it('spreads the contents of many pages over several sheets, every number pointing at its page', async () => {
    const { pdf } = await render(
      manuscript(
        Array.from({ length: 120 }, (_, i) => ({
          title: `Topic ${i}`,
          depth: i % 3 === 0 ? 0 : 1,
          markdown: `Body of topic ${i}.`,
        })),
      ),
    );
    const contents = pdf.sheets.filter((s, i) => i > 0 && !/^Topic \d+\n/.test(s));
    expect(contents.length).toBeGreaterThan(1);
    const listed = contents.join('\n');
    for (let i = 0; i < 120; i++) {
      const [, number] = new RegExp(`Topic ${i}\\s+(\\d+)\\n`).exec(listed) ?? [];
      expect(pdf.sheets[Number(number) - 1]).toMatch(new RegExp(`^Topic ${i}\\n\\s*Body of topic ${i}\\.`));
    }
    expect(pdf.outline.map((o) => o.title)).toEqual([
      'Contents',
      ...Array.from({ length: 40 }, (_, i) => `Topic ${i * 3}`),
    ]);
    expect(pdf.outline[1].items.map((o) => o.title)).toEqual(['Topic 1', 'Topic 2']);
  });

  it('renders a manuscript collected before the lines, one JSON document, as the same PDF', async () => {
    const m = manuscript(Array.from({ length: 5 }, (_, i) => ({ title: `Topic ${i}`, markdown: `Body ${i}.` })));
    const [lines, whole] = [await render(m), await render(m, true)];
    expect(whole.pdf.sheets).toEqual(lines.pdf.sheets);
    expect(whole.pdf.outline).toEqual(lines.pdf.outline);
  });

  it('refuses a manuscript file cut short, rather than render part of it', async () => {
    await withTempDir('pdf-render-test-', async (dir) => {
      const file = path.join(dir, 'manuscript.jsonl');
      const out = new ManuscriptWriter(file);
      await out.write({ head: { title: 'T', subtitle: 'S', scope: null, revisionId: 'r', generatedAt: 'now' } });
      await out.close();
      await expect(openManuscript(file)).rejects.toThrow(/is incomplete/);
    });
  });

  it('renders empty and untitled pages, deep lists and headings that skip levels', async () => {
    const list = Array.from({ length: 8 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth}`).join('\n');
    const { pdf } = await render(
      manuscript([{ title: '', markdown: '' }, { markdown: `#### Deep heading\n\n${list}\n\n# Top heading\n` }]),
    );
    expect(pdf.sheets[2]).toMatch(/^Untitled\n/);
    expect(pdf.sheets[3]).toContain('level 7');
    expect(pdf.outline[2].items.map((o) => [o.title, o.items.length])).toEqual([
      ['Deep heading', 0],
      ['Top heading', 0],
    ]);
  });

  it('draws what the fonts cover and replaces the rest visibly, dropping invisible marks it has no glyph for', () => {
    expect(drawable('Ωmega Жук café', 'regular')).toBe('Ωmega Жук café');
    expect(drawable('漢字', 'regular')).toBe('\uFFFD\uFFFD');
    // a pictograph and its skin tone have no glyphs; an isolate mark and a tag character, invisible anyway, are dropped
    expect(drawable('ok 👍🏽\u2066\u{E0041}!', 'regular')).toBe('ok \uFFFD\uFFFD!');
    expect(drawable('a\tb\u0007c', 'mono')).toBe('a    bc');
  });

  it('a PDF past PDF_MAX_SHEETS or PDF_MAX_BYTES stops with PDF_TOO_LARGE', async () => {
    const paragraph = 'A sentence that fills part of a line, and then some more words to wrap it. '.repeat(4);
    const long = { markdown: `${paragraph}\n\n`.repeat(400) };
    const tooLarge = (m: Manuscript, limits: PdfLimits) => renderFile(m, limits);
    // more pages than sheets: refused before a page is drawn
    await expect(
      tooLarge(manuscript(Array.from({ length: 30 }, () => ({ markdown: 'x' }))), { ...NO_LIMITS, sheets: 20 }),
    ).rejects.toMatchObject({ code: 'PDF_TOO_LARGE', message: 'the PDF would have more than 20 sheets (30 pages)' });
    // one page that takes ~40 sheets: stopped at the sheet past the limit, as pdfkit adds it
    await expect(tooLarge(manuscript([long]), { ...NO_LIMITS, sheets: 20 })).rejects.toMatchObject({
      code: 'PDF_TOO_LARGE',
      message: 'the PDF would have more than 20 sheets',
    });
    await expect(tooLarge(manuscript([long]), { ...NO_LIMITS, bytes: 30_000 })).rejects.toMatchObject({
      code: 'PDF_TOO_LARGE',
      message: 'the PDF would be larger than 30000 bytes',
    });
  });

  it("markdown nested past markdown-it's maxNesting, or past the token budget, still renders", async () => {
    const quotes = `${'> '.repeat(5000)}deep quote`;
    const lists = Array.from({ length: 150 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth}`).join('\n');
    // 650 rows of 100 cells: 260,000 tokens, past MARKDOWN_MAX_TOKENS: drawn as its text
    const table = `${'|h'.repeat(100)}|\n${'|-'.repeat(100)}|\n${`${'|a'.repeat(100)}|\n`.repeat(650)}`;
    const { pdf } = await render(manuscript([{ markdown: quotes }, { markdown: lists }, { markdown: table }]));
    const text = pdf.sheets.join('\n');
    // a list level is two of markdown-it's levels (list, item): past its 100 nothing is drawn (and the deepest
    // levels drawn have little width left)
    expect(text).toContain('level 25');
    expect(text).not.toContain('level 60');
    expect(text).toContain('|a|a|a');
  });
});
