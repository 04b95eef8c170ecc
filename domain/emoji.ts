/**
 * GitBook's `Emoji`: one emoji, as its character(s) (`🚀`, `👩‍💻`, `🇫🇷`) or as its code points in hexadecimal
 * joined by `-` (`1f680`, `1f1eb-1f1f7`, as GitBook's app stores them), at most 50 characters. What counts as one
 * emoji is Unicode's list of emoji sequences, as the emoji-regex package keeps it.
 */
import emojiRegex from 'emoji-regex';

export const EMOJI_MAX = 50;

const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i;

/** The emoji a code-point form spells, or undefined when it is not one. */
function fromCodePoints(text: string): string | undefined {
  if (!CODE_POINTS.test(text)) return undefined;
  const points = text.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return undefined;
  return String.fromCodePoint(...points);
}

function isOneEmoji(text: string): boolean {
  const found = text.match(emojiRegex());
  return found?.length === 1 && found[0] === text;
}

/** Whether `text` is one emoji, by its characters or its code points. */
export function isEmoji(text: string): boolean {
  if (text.length === 0 || text.length > EMOJI_MAX) return false;
  if (isOneEmoji(text)) return true;
  const spelled = fromCodePoints(text);
  return spelled !== undefined && isOneEmoji(spelled);
}
