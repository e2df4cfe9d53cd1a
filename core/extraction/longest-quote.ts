/**
 * The most characters a quote may have: the evidence rule of the extraction prompt asks for "the
 * shortest passage of the document (at most 200 characters)" (`evidenceRule`; a test holds the two
 * to the same number). A longer quote no longer shows where a value is stated — a quoted page
 * would back any number printed on it — and, kept whole, a reply's 25-million-character quote
 * became 25 million characters of evidence in the database.
 */
export const longestQuote = 200;

/** A quote as evidence keeps it: whole up to `longestQuote`, else its beginning and how long it was. */
export function storedQuote(quote: string): string {
  return quote.length > longestQuote ? `${quote.slice(0, longestQuote)}… (cut: the model quoted ${quote.length.toLocaleString('en-US')} characters)` : quote;
}
