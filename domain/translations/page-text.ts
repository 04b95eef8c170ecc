/** The translatable fields of a page, as one list of segments, and the hash that tells a changed page. */
import { canonicalJson, hashOf } from '../content/objects';
import { markdownText, plainText, Segment, TranslatableText } from './segments';

export interface PageText {
  title: string;
  description: string | null;
  markdown: string;
}

/** SHA-1 of what a translation reads of a page: a page whose hash is unchanged is not sent again. */
export function pageTextHash(page: PageText): string {
  return hashOf(canonicalJson({ title: page.title, description: page.description, markdown: page.markdown }));
}

export interface TranslatablePage {
  segments: Segment[];
  words: number;
  render(translated: Segment[]): PageText;
}

export function translatablePage(page: PageText): TranslatablePage {
  const fields: Array<[keyof PageText, TranslatableText | null]> = [
    ['title', plainText(page.title)],
    ['description', page.description === null ? null : plainText(page.description)],
    ['markdown', markdownText(page.markdown)],
  ];
  return {
    segments: fields.flatMap(([, text]) => text?.segments ?? []),
    words: fields.reduce((n, [, text]) => n + (text?.words ?? 0), 0),
    render(translated) {
      // the text fields alone: a page version passed in carries its emoji, dates and links too
      const out: PageText = { title: page.title, description: page.description, markdown: page.markdown };
      let at = 0;
      for (const [name, text] of fields) {
        if (!text) continue;
        const count = text.segments.length;
        out[name] = text.render(translated.slice(at, at + count)) as never;
        at += count;
      }
      return out;
    },
  };
}
