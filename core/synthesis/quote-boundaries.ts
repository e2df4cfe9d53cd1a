/**
 * Where a quote code returned sits in the document: what comes right before it and right after
 * it — a line boundary, a letter or digit, a space, or another mark — e.g. `line|line` for a
 * whole line, `mark|space` for a value cut short after a word. `absent` when the quote is not a
 * verbatim part of the text.
 *
 * An extractor's quotes sit the same way on every document of a template; one that sits otherwise
 * on a new document (a name cut after its second word: `line|space` where the checked documents
 * all had `line|line`) means the function misreads a variant the held-out documents did not show,
 * and the model reads that value instead.
 */
export function quoteBoundaries(text: string, quote: string): string {
  const start = quote === '' ? -1 : text.indexOf(quote);
  if (start < 0) return 'absent';
  return `${boundaryClass(text[start - 1])}|${boundaryClass(text[start + quote.length])}`;
}

function boundaryClass(character: string | undefined): string {
  if (character === undefined || character === '\n' || character === '\r') return 'line';
  if (/[\p{L}\p{N}]/u.test(character)) return 'word';
  if (/\s/u.test(character)) return 'space';
  return 'mark';
}
