/**
 * An accounting negative whose parentheses can only be a sign: an amount with a currency symbol
 * or thousands groups, "(1,234)" or "($ 45.50)". "(2)" is not one: footnotes and list labels look
 * the same.
 */
const accountingNegative = /\((\s*\p{Sc}?\s*)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<=\p{Sc}\s*)\d+(?:\.\d+)?)\s*\)/gu;

/** A minus before a currency symbol ("-$45"), moved after it so that it stays next to the digits. */
const signBeforeCurrency = /-\s*(\p{Sc})\s*(?=\d)/gu;

/**
 * Fold a document or a quote to the form quotes are matched in, so that the ways models re-type a
 * passage compare equal while its words and numbers do not:
 * - letter case, diacritics ("Zürich"/"Zurich"), compatibility forms (ligatures, no-break spaces),
 *   typographic quotes and dashes are folded;
 * - punctuation, quotation marks and markdown are dropped to a space, and spaces collapse;
 * - what makes a number is kept: digits, a mark between two digits ("1,234", "9.4/10", "2010-2014"),
 *   a minus sign before a digit, currency symbols and "%" (each as a word of its own, so "US$5" and
 *   "US$ 5" agree); an accounting negative "(1,234)" becomes "-1,234" and "-$45" becomes "$ -45".
 * Linear in the text; a document is folded once per record.
 */
export function foldQuoteText(text: string): string {
  // ASCII rules use plain regular expressions, which are several times faster on long documents
  // than Unicode property classes; only non-ASCII characters go through the callback.
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(accountingNegative, '$1-$2')
    .replace(signBeforeCurrency, '$1-')
    .replace(/[\x00-\x1f\s!"#&()*+;<=>?@[\\\]^_`{|}~]+/g, ' ')
    .replace(/[^\x00-\x7f]/g, (character) => (/[\p{L}\p{N}]/u.test(character) ? character : /\p{Sc}/u.test(character) ? ` ${character} ` : ' '))
    .replace(/(?<!\d)[.,:/']|[.,:/'](?!\d)/g, ' ')
    .replace(/-(?!\d)|(?<=[a-z\d])-(?!(?<=\d-)\d)/g, ' ')
    .replace(/[$%]/g, ' $& ')
    .replace(/ {2,}/g, ' ')
    .trim();
}
