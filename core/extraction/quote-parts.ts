/** An elision mark: "...", "…", "[...]", "(…)", each with the spaces around it. */
const elision = /\s*(?:\[\s*(?:\.{3,}|…)\s*\]|\(\s*(?:\.{3,}|…)\s*\)|\.{3,}|…)\s*/;

/** A list marker at the start of a line: "- ", "* ", "• ", "1. ", "2) ", "a) ". */
const listMarker = /^[ \t]*(?:[-*+•‣◦▪]|\d{1,3}[.)]|[a-z][.)])[ \t]+/gm;
/** The same marker at the start of a quote of one line, where no other line can start (tried at one place, not searched for). */
const listMarkerAtStart = /^[ \t]*(?:[-*+•‣◦▪]|\d{1,3}[.)]|[a-z][.)])[ \t]+/;
/** What ends a line for `^` in a multiline pattern. */
const lineTerminator = /[\n\r\u2028\u2029]/;

/**
 * The passages a model's quote is made of: the quote split at its elisions ("Revenue … 100" is two
 * passages), with list markers at line starts removed, since models add them when copying a list
 * item. Empty passages (a quote that starts with "…") are dropped; the rest of the re-typing
 * (case, punctuation, spacing, quotation marks) is folded by `foldQuoteText`.
 */
export function quoteParts(quote: string): readonly string[] {
  if (quote === lastQuote) return lastParts;
  const unmarked = lineTerminator.test(quote) ? quote.replace(listMarker, '') : mayStartWithMarker(quote) ? quote.replace(listMarkerAtStart, '') : quote;
  // Every elision mark has "..." or "…": a quote with neither is one passage.
  const parts = unmarked.includes('...') || unmarked.includes('…') ? unmarked.split(elision).filter(hasLetterOrDigit) : hasLetterOrDigit(unmarked) ? [unmarked] : [];
  lastQuote = quote;
  lastParts = parts;
  return parts;
}

/** The last quote's passages: a quote is split where it is found and again where its value is read. */
let lastQuote: string | undefined;
let lastParts: readonly string[] = [];

/** Whether a list marker could start `quote` (`listMarkerAtStart`'s first character): most quotes start with a capital. */
function mayStartWithMarker(quote: string): boolean {
  const code = quote.charCodeAt(0);
  return code === 32 || code === 9 || (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || '-*+•‣◦▪'.includes(quote[0] ?? 'A');
}

/** Whether a text has a letter or a digit (an ASCII one found without a Unicode property). */
function hasLetterOrDigit(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if ((code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122)) return true;
  }
  return /[\p{L}\p{N}]/u.test(text);
}
