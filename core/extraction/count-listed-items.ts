/** What separates the items of a list written in prose or as lines. */
const itemSeparator = /\s*(?:[,;\n•·]|\band\b|\bor\b|&)\s*/i;

/**
 * How many items a quote lists, for a count derived from a list ("Languages: English, French and
 * German" lists 3): the text after a leading label ("…:" or "…|") split at commas, semicolons,
 * "and", "or", "&", bullets and line breaks, counting parts with a letter. Undefined when the quote
 * is not a list (fewer than two items): a count of one must be stated, not derived.
 */
export function countListedItems(quote: string): number | undefined {
  const body = quote.replace(/^[^:|\n]*[:|]\s*(?=\S)/, '');
  const items = body
    .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/gm, '')
    .split(itemSeparator)
    .filter((item) => /\p{L}/u.test(item));
  return items.length >= 2 ? items.length : undefined;
}
