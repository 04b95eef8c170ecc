/**
 * The `pseudo` provider, the embedded default for development: deterministic pseudo-localisation, not
 * a translation. Every ASCII letter gets an accent, each segment is wrapped in ⟦ ⟧ and lengthened by
 * about a third with · (translated text runs longer), so untranslated or truncated text stands out
 * and nobody mistakes the result for a translation. Placeholders pass through untouched.
 */
import type { Segment } from '../segments';
import type { TranslationProvider } from './provider';

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'];
const ACCENT = new Map([...PLAIN].map((c, i) => [c, ACCENTED[i]]));

export function pseudoLocalise(text: string): string {
  return [...text].map((c) => ACCENT.get(c) ?? c).join('');
}

/** One segment: accents on its text, ⟦ before its first text and ·…⟧ after its last. */
export function pseudoSegment(segment: Segment): Segment {
  const texts = segment.flatMap((p, i) => (typeof p === 'string' ? [i] : []));
  if (!texts.length) return segment;
  const letters = segment.reduce<number>((n, p) => n + (typeof p === 'string' ? p.replace(/\s/g, '').length : 0), 0);
  const first = texts[0];
  const last = texts[texts.length - 1];
  return segment.map((p, i) => {
    if (typeof p !== 'string') return p;
    let out = pseudoLocalise(p);
    if (i === first) out = out.replace(/^(\s*)/, '$1⟦');
    if (i === last) out = out.replace(/(\s*)$/, `${'·'.repeat(Math.ceil(letters / 3))}⟧$1`);
    return out;
  });
}

export const pseudoProvider: TranslationProvider = {
  name: 'pseudo',
  maxSegments: Number.MAX_SAFE_INTEGER,
  async translateBatch(segments) {
    return segments.map(pseudoSegment);
  },
};
