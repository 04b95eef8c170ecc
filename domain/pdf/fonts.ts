/**
 * The PDF's fonts: DejaVu Sans and Sans Mono, installed from npm (`dejavu-fonts-ttf`) and read
 * from disk, never fetched. They cover Latin, Greek and Cyrillic; a character a face has no glyph
 * for becomes U+FFFD (drawn as a visible replacement mark), and invisible format characters it
 * cannot draw (emoji joiners, variation selectors) are dropped, so no text ever fails to render.
 */

import * as fontkit from 'fontkit';
import * as fs from 'fs';
import * as path from 'path';

const FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  boldItalic: 'DejaVuSans-BoldOblique.ttf',
  mono: 'DejaVuSansMono.ttf',
  monoBold: 'DejaVuSansMono-Bold.ttf',
} as const;

export type Face = keyof typeof FILES;
export const FACES = Object.keys(FILES) as Face[];

const DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REPLACEMENT = '\uFFFD';
// biome-ignore lint/suspicious/noMisleadingCharacterClass: variation selectors are matched alone, on purpose, to drop them
const INVISIBLE = /[\p{Cf}\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

interface LoadedFace {
  bytes: Buffer;
  font: fontkit.Font;
  covered: Map<number, boolean>;
}

let loaded: Record<Face, LoadedFace> | null = null;

/** Each face's bytes and glyph table, read once per process. */
function faces(): Record<Face, LoadedFace> {
  if (!loaded) {
    loaded = Object.fromEntries(
      FACES.map((face) => {
        const bytes = fs.readFileSync(path.join(DIR, FILES[face]));
        return [face, { bytes, font: fontkit.create(bytes) as fontkit.Font, covered: new Map() }];
      }),
    ) as Record<Face, LoadedFace>;
  }
  return loaded;
}

export function fontBytes(face: Face): Buffer {
  return faces()[face].bytes;
}

function covers(face: LoadedFace, codePoint: number): boolean {
  let known = face.covered.get(codePoint);
  if (known === undefined) {
    known = face.font.hasGlyphForCodePoint(codePoint);
    face.covered.set(codePoint, known);
  }
  return known;
}

/** The text as `face` can draw it: tabs as spaces, other controls dropped, missing glyphs as U+FFFD. */
export function drawable(text: string, face: Face): string {
  const loadedFace = faces()[face];
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (char === '\t') out += '    ';
    else if (char === '\n' || covers(loadedFace, codePoint)) out += char;
    else if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0) || INVISIBLE.test(char)) continue;
    else out += REPLACEMENT;
  }
  return out;
}
