/** The bounds of one document an import converts (domain/imports/html-to-markdown.ts), without a server. */
import { htmlToMarkdown } from '../../domain/imports/html-to-markdown';
import { markdownToPage } from '../../domain/imports/sources/markdown';

const BASE = 'https://docs.example/page.html';

/** Converts with a spy on the image callback: which images were fetched. */
function convert(html: string, mainContent = false) {
  const fetched: string[] = [];
  const page = htmlToMarkdown(html, {
    baseUrl: BASE,
    mainContent,
    link: (url) => url.href,
    image: async (url) => {
      fetched.push(url.href);
      return 'file:f1';
    },
  });
  return { page, fetched };
}

const refusal = (rule: string) => ({ code: 'LIMIT_EXCEEDED', message: `${BASE}: ${rule}` });

describe('the bounds of one imported document', () => {
  it('refuses HTML past its characters, elements or depth before Readability or Turndown read it', async () => {
    await expect(convert(`<p>${'x'.repeat(5_000_001)}</p>`).page).rejects.toMatchObject(
      refusal('the document has more than 5000000 characters'),
    );
    // 100,000 paragraphs in 800 KB took 400 MB in linkedom
    await expect(convert('<p>x</p>'.repeat(20_001)).page).rejects.toMatchObject(
      refusal('the document has more than 20000 elements'),
    );
    // 5,000 nested divs (55 KB) kept Readability busy 275 s before Turndown overflowed the stack
    const deep = `<p>x</p>${'<div>'.repeat(5000)}x${'</div>'.repeat(5000)}`;
    await expect(convert(deep, true).page).rejects.toMatchObject(
      refusal('the document nests elements more than 256 levels deep'),
    );
    // at the bounds: converted
    const { page } = convert(`<h1>T</h1>${'<div>'.repeat(250)}<p>at the bounds</p>${'</div>'.repeat(250)}`, true);
    await expect(page).resolves.toMatchObject({ title: 'T', markdown: expect.stringContaining('at the bounds') });
  });

  it('refuses a page whose markdown the API would not take, before its images are fetched', async () => {
    const image = '<img src="https://img.example/a.png" alt="a">';
    const long = convert(`${image}<p>${'word '.repeat(210_000)}</p>`);
    await expect(long.page).rejects.toMatchObject(refusal('its markdown would have more than 1000000 characters'));
    // 400,000 escaped asterisks: 800 KB of markdown, a token each
    const stars = convert(`${image}<p>${'*'.repeat(400_000)}</p>`);
    await expect(stars.page).rejects.toMatchObject(refusal('its markdown would be too large to parse'));
    expect([...long.fetched, ...stars.fetched]).toEqual([]);
  });

  it('refuses markdown past the token budget before rendering it, and reads a long front matter line in linear time', async () => {
    const options = { baseUrl: BASE, link: (url: URL) => url.href, image: async () => null };
    await expect(markdownToPage('- a\n'.repeat(250_000), options)).rejects.toMatchObject(
      refusal('the markdown must not parse into more than 250000 markdown tokens (blocks, inlines and their ends)'),
    );
    await expect(markdownToPage('x'.repeat(5_000_001), options)).rejects.toMatchObject(
      refusal('the document has more than 5000000 characters'),
    );
    // `title:(.+?)["']?\s*$` took quadratic time on this line (20,000 spaces: 0.8 s; 200,000: over a minute)
    const started = Date.now();
    const page = await markdownToPage(`---\ntitle: "A title${' '.repeat(200_000)}x"\n---\nBody.\n`, options);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(page.title).toMatch(/^A title {200000}x$/);
    expect((await markdownToPage("---\ntitle: 'Quoted'\n---\nBody.\n", options)).title).toBe('Quoted');
  });
});
