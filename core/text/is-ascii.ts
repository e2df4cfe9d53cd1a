/**
 * Whether every character of `text` is ASCII. Unicode normalization (NFKC, NFKD) leaves such a text
 * as it is and no character of it is a combining mark, so a caller may skip both: they cost more
 * than the rest of reading a short value or quote.
 */
export function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) > 127) return false;
  return true;
}
