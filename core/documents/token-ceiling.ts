/** A UTF-16 unit of more than one UTF-8 byte. */
const notAscii = /[^\x00-\x7f]/;

/**
 * The most tokens `text` can be in any byte-level BPE encoding (o200k included): its UTF-8 bytes,
 * since every token is at least one byte. About four times the count for English prose, but exact
 * counting is needed only where this bound does not decide: a short document that fits a budget by
 * its ceiling fits it by its count, and no tokenizer is loaded for it (o200k's tables take ~0.4 s
 * of CPU and ~80 MB to load, counting a 1 kB page ~0.1 ms).
 */
export function tokenCeiling(text: string): number {
  // ASCII is a byte a unit: the units before the first other one are skipped by one regular-expression
  // search (native code, ~3 times faster than reading each unit), and many pages are ASCII throughout.
  const firstOther = text.search(notAscii);
  if (firstOther < 0) return text.length;
  let bytes = text.length;
  for (let index = firstOther; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Two bytes up to U+07FF, three above; a surrogate three too (a lone one is encoded as U+FFFD), so a pair counts six of its four.
    if (code >= 0x80) bytes += code < 0x800 ? 1 : 2;
  }
  return bytes;
}
