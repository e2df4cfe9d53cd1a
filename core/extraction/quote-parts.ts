/** An elision mark: "...", "…", "[...]", "(…)", each with the spaces around it. */
const elision = /\s*(?:\[\s*(?:\.{3,}|…)\s*\]|\(\s*(?:\.{3,}|…)\s*\)|\.{3,}|…)\s*/;

/** A list marker at the start of a line: "- ", "* ", "• ", "1. ", "2) ", "a) ". */
const listMarker = /^[ \t]*(?:[-*+•‣◦▪]|\d{1,3}[.)]|[a-z][.)])[ \t]+/gm;

/**
 * The passages a model's quote is made of: the quote split at its elisions ("Revenue … 100" is two
 * passages), with list markers at line starts removed, since models add them when copying a list
 * item. Empty passages (a quote that starts with "…") are dropped; the rest of the re-typing
 * (case, punctuation, spacing, quotation marks) is folded by `foldQuoteText`.
 */
export function quoteParts(quote: string): string[] {
  const unmarked = quote.replace(listMarker, '');
  // Every elision mark has "..." or "…": a quote with neither is one passage.
  const parts = unmarked.includes('...') || unmarked.includes('…') ? unmarked.split(elision) : [unmarked];
  return parts.filter((part) => /[\p{L}\p{N}]/u.test(part));
}
