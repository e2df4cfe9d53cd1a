/** Bullets and numbering at the start of a line: "- ", "* ", "• ", "1. ", "2) ". */
const bullet = /^\s*(?:[-*•·]|\d{1,3}[.)])\s+/;

/**
 * The items of an answer that lists things: "A, B and C", "A; B; C", one per line with or without
 * bullets, after a lead-in such as "The hotels are:" (text before the first colon, three or more
 * words). Commas inside numbers ("1,160") do not split; a trailing full stop
 * and a leading "and"/"or" are dropped.
 */
export function splitAnswerItems(answer: string): string[] {
  const items = withoutLeadIn(answer.normalize('NFKC').replace(/[*_`]/g, '').trim())
    .split('\n')
    .map((line) => line.replace(bullet, ''))
    .flatMap((line) => line.split(/;\s*/))
    .flatMap((part) => part.split(/,\s+/))
    .map(tidyItem)
    .filter((item) => item !== '');
  const last = items.at(-1);
  if (last !== undefined && / and /.test(last) && !/ and /.test(items.slice(0, -1).join(' '))) {
    items.pop();
    for (const item of last.split(/\s+and\s+/).map(tidyItem)) if (item !== '') items.push(item);
  }
  return items;
}

function tidyItem(item: string): string {
  return item.trim().replace(/^(?:and|or)\s+/i, '').replace(/[.!]+$/, '').trim();
}

/**
 * The values a one-line answer offers side by side ("Silver Gate Inn; Opal Inn", as a query result
 * with a tie reads): two or more `;`-separated parts of at most six words each. Undefined for any
 * other answer, so that a sentence or a multi-line explanation is never mistaken for a list.
 */
export function offeredAlternatives(answer: string): string[] | undefined {
  const text = withoutLeadIn(answer.normalize('NFKC').replace(/[*_`]/g, '').trim());
  if (text.includes('\n')) return undefined;
  const parts = text.split(/;\s*/).map(tidyItem).filter((part) => part !== '');
  if (parts.length < 2 || parts.some((part) => part.split(/\s+/).length > 6)) return undefined;
  return parts;
}

/** The answer after a lead-in that ends in a colon and has three or more words ("The hotels are:"). */
function withoutLeadIn(text: string): string {
  const leadIn = /^([^:\n]*):(?:\s*\n|\s+)/.exec(text);
  if (!leadIn || leadIn[1]!.trim().split(/\s+/).length < 3) return text;
  return text.slice(leadIn[0].length);
}
