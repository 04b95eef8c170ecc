/**
 * Segments as the HTTP providers read them: text with placeholders as empty XML elements
 * `<x id="N"/>`, which DeepL (tag_handling=xml), LibreTranslate (format=html) and a prompted model
 * keep in place. The text around them is escaped, so only placeholders are markup.
 */
import type { Segment } from '../segments';

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
  nbsp: '\u00a0',
};
const unescapeText = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_, name: string) => ENTITIES[name]);

export function toTagged(segment: Segment): string {
  return segment.map((p) => (typeof p === 'number' ? `<x id="${p}"/>` : escapeText(p))).join('');
}

/** An HTML serializer may answer `<x id="0"></x>`; both forms are read. */
const TAG = /<x\s+id=["']?(\d+)["']?\s*\/?>(?:\s*<\/x>)?/g;

export function fromTagged(text: string): Segment {
  const out: Segment = [];
  let from = 0;
  for (const m of text.matchAll(TAG)) {
    if (m.index! > from) out.push(unescapeText(text.slice(from, m.index)));
    out.push(Number(m[1]));
    from = m.index! + m[0].length;
  }
  if (from < text.length) out.push(unescapeText(text.slice(from)));
  return out;
}
