/** Collapses every whitespace run to one space and trims, so quotes match across line breaks. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Gold quotes, normalized once: a request is matched against every gold record's quotes, and
 * normalizing them anew each time made the stand-in, not srag, the bottleneck of the benchmarks.
 */
const normalizedQuotes = new Map<string, string>();

/** Whether `quote` occurs in `haystack` after whitespace normalization (case-sensitive). `haystack` must be normalized already. */
export function containsQuote(normalizedHaystack: string, quote: string | null | undefined): boolean {
  if (typeof quote !== 'string') return false;
  let needle = normalizedQuotes.get(quote);
  if (needle === undefined) {
    needle = normalizeWhitespace(quote);
    normalizedQuotes.set(quote, needle);
  }
  return needle.length > 0 && normalizedHaystack.includes(needle);
}

/** The first line of a message, trimmed. */
export function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? '').trim();
}
