/**
 * Markdown-aware translation: only text is sent, and the answer is written back into exactly the
 * source range of its run. The pseudo provider makes every translated character visible.
 */
import { translatablePage } from '../../domain/translations/page-text';
import { pseudoLocalise, pseudoSegment } from '../../domain/translations/providers/pseudo';
import { fromTagged, toTagged } from '../../domain/translations/providers/tags';
import { markdownText, plainText, Segment } from '../../domain/translations/segments';

const pseudo = (markdown: string) => {
  const text = markdownText(markdown);
  return text.render(text.segments.map(pseudoSegment));
};

const PAGE = `---
description: front matter stays
tags: [a, b]
---
# Getting started

Install with \`npm install docs-cli\` and read [the guide](page:abc123 "Guide") or https://example.com/docs.

> Quoted **bold** text
> on two lines, with {{ variables.product }} inside.

- First item
- Second item with ![a diagram](file:img42 "Diagram") inside
  1. nested item

| Name | Value |
| --- | :---: |
| colour | \`#fff\` |

\`\`\`js
const greeting = "Hello world";
\`\`\`

    indented code stays

{% hint style="info" %}
Hints are translated too.
{% endhint %}

Setext heading
--------------

A line with a hard break  
and its continuation, &amp; an entity, <kbd>Ctrl</kbd> and \\*escaped\\*.

[ref link][docs] and <https://auto.link/x>.

[docs]: https://example.com/reference
`;

describe('markdown-aware segments', () => {
  it('sends only prose: code, URLs, link targets, image sources, variables and front matter are placeholders', () => {
    const sent = markdownText(PAGE).segments.map(toTagged).join('\n');
    for (const kept of [
      'npm install',
      'page:abc123',
      'https://example.com/docs',
      'variables.product',
      'file:img42',
      '#fff',
      'const greeting',
      'indented code',
      'front matter',
      'hint style',
      'https://auto.link',
      '&amp;',
      '[docs]',
      'https://example.com/reference',
    ]) {
      expect(sent).not.toContain(kept);
    }
    for (const prose of [
      'Getting started',
      'Install with',
      'the guide',
      'Quoted',
      'on two lines',
      'First item',
      'a diagram',
      'nested item',
      'colour',
      'Hints are translated too.',
      'Setext heading',
      'A line with a hard break',
      'ref link',
    ]) {
      expect(sent).toContain(prose);
    }
  });

  it('writes the translation back in place and keeps every other byte', () => {
    const out = pseudo(PAGE);
    // everything that is not prose is byte for byte the source
    for (const kept of [
      '---\ndescription: front matter stays\ntags: [a, b]\n---\n',
      '`npm install docs-cli`',
      '](page:abc123 "Guide")',
      'https://example.com/docs',
      '{{ variables.product }}',
      '](file:img42 "Diagram")',
      '`#fff`',
      '```js\nconst greeting = "Hello world";\n```',
      '    indented code stays',
      '{% hint style="info" %}\n',
      '{% endhint %}',
      '--------------',
      '&amp;',
      '<kbd>',
      '\\*',
      '][docs]',
      '<https://auto.link/x>',
      '[docs]: https://example.com/reference',
      '| --- | :---: |',
    ]) {
      expect(out).toContain(kept);
    }
    expect(out).toContain('# ⟦Ĝéţţîñĝ šţåŕţéđ');
    expect(out).toContain('> ⟦Ǫûöţéđ **ƀöļđ** ţéẋţ öñ ţŵö ļîñéš, ŵîţĥ {{ variables.product }} îñšîđé.');
    expect(out).toContain('  1. ⟦ñéšţéđ îţéɱ');
    expect(out).toMatch(/\| ⟦çöļöûŕ·+⟧ \| `#fff` \|/);
    expect(out).toMatch(/⟦Å ļîñé ŵîţĥ å ĥåŕđ ƀŕéåķ {2}\nåñđ îţš çöñţîñûåţîöñ/);
    expect(out).toContain('⟦Šéţéẋţ ĥéåđîñĝ');
    // the same structure: as many lines as the source, code and links as parsed before
    expect(out.split('\n').length).toBe(PAGE.split('\n').length - 1); // the quote's two lines became one
    const links = (md: string) => [...md.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]);
    expect(links(out)).toEqual(links(PAGE));
  });

  it('keeps a run untranslated when the answer lost a placeholder or changed its code or links', () => {
    const text = markdownText('Run `make` now.\n\nSee [docs](https://x.test).');
    const [code, link] = text.segments;
    const lost: Segment[] = [['Lancez maintenant.'], link.map((p) => (typeof p === 'string' ? p.toUpperCase() : p))];
    expect(text.render(lost)).toBe('Run `make` now.\n\nSEE [DOCS](https://x.test).');
    // a provider that wrote markdown of its own that turns text into a link
    const injected: Segment[] = [code, ['Voir ', 0, '[docs', 1, ' ](http://evil.test)']];
    expect(text.render(injected)).toBe('Run `make` now.\n\nSee [docs](https://x.test).');
  });

  it('leaves runs without letters alone and counts the words it sends', () => {
    const text = markdownText('`code only`\n\n42\n\nTwo words.');
    expect(text.segments).toEqual([['Two words.']]);
    expect(text.words).toBe(2);
    const page = translatablePage({
      title: 'Hello {{ variables.name }}',
      description: null,
      markdown: 'One two three.',
    });
    expect(page.words).toBe(4);
    expect(page.render(page.segments.map(pseudoSegment))).toEqual({
      title: '⟦Ĥéļļö··⟧ {{ variables.name }}',
      description: null,
      markdown: '⟦Öñé ţŵö ţĥŕéé.····⟧',
    });
  });

  it('plain text keeps expressions; a title answer on several lines is one line', () => {
    const title = plainText('Set {{ variables.x }} up');
    expect(title.render([['Réglez ', 0, '\nmaintenant']])).toBe('Réglez {{ variables.x }} maintenant');
    expect(title.render([['lost']])).toBe('Set {{ variables.x }} up');
  });

  it('tags round-trip through escaping, in both element forms', () => {
    const segment: Segment = ['a < b & c ', 0, ' d', 1];
    expect(toTagged(segment)).toBe('a &lt; b &amp; c <x id="0"/> d<x id="1"/>');
    expect(fromTagged(toTagged(segment))).toEqual(segment);
    expect(fromTagged('x <x id="0"></x> y')).toEqual(['x ', 0, ' y']);
  });

  it('pseudo-localisation is deterministic, accented and longer', () => {
    expect(pseudoLocalise('Hello World')).toBe('Ĥéļļö Ŵöŕļđ');
    const out = pseudoSegment(['Hello ', 0, ' world']);
    expect(out).toEqual(pseudoSegment(['Hello ', 0, ' world']));
    expect(out.join('').length).toBeGreaterThan('Hello 0 world'.length * 1.2);
  });
});
