/** The part of a section body shown in a search result: about 500 characters around the first match. */
export const EXCERPT_LENGTH = 500;
/** How much text before the match is kept, so the match reads in context. */
const LEAD = 100;

/** `locate`: where the body's first match starts (-1: none). */
export function excerpt(body: string, locate: (body: string) => number): string {
  if (body.length <= EXCERPT_LENGTH) return body.trim();
  const at = locate(body);
  let start = at > LEAD ? at - LEAD : 0;
  if (start > 0) {
    // begin on a word boundary
    const space = body.slice(start, at).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  let end = Math.min(body.length, start + EXCERPT_LENGTH);
  if (end < body.length) {
    const lastSpace = body.slice(start, end).search(/\s\S*$/);
    if (lastSpace > 0) end = start + lastSpace;
  }
  return body.slice(start, end).trim();
}
