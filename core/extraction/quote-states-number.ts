import { numbersInText } from '../normalization/numbers-in-text.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { countListedItems } from './count-listed-items.ts';

/** Words that make a number stated without a sign negative ("a loss of $45" is -45). */
const negativeWords = /\b(?:loss|losses|lost|deficit|decrease[sd]?|decline[sd]?|fell|fall(?:en|ing)?|drop(?:ped|s)?|down|negative|minus|lower|outflows?|shortfall|reduction|reduced|below)\b/i;

/**
 * Whether `quote` states the number `value` for `attribute`; null when it does, else the reason.
 * The quote's numbers are read as the column reads values (`numbersInText`: unit, currency, scale,
 * magnitude words), and one must equal the value, or round to it at the value's own precision
 * (9.43 stated as 9.4 within 0.5 %). Derived values are accepted in three forms only:
 * - a negative value whose magnitude is stated next to a word such as "loss", "decline" or "fell";
 * - a fraction of a percentage in a column without unit ("12%" supports 0.12 and 12);
 * - a count in an integer column, when the quote lists that many items (see `countListedItems`).
 */
export function quoteStatesNumber(value: number, quote: string, attribute: AttributeDefinition): string | null {
  const { numbers, refused } = numbersInText(quote, attribute);
  if (numbers.some((stated) => agrees(value, stated.value))) return null;
  if (value < 0 && negativeWords.test(quote) && numbers.some((stated) => agrees(-value, stated.value))) return null;
  if (!attribute.unit && numbers.some((stated) => /%|percent|per cent/i.test(stated.written) && agrees(value, stated.value / 100))) return null;
  if (attribute.kind === 'integer' && countListedItems(quote) === value) return null;
  if (numbers.length > 0) {
    const listing = numbers.slice(0, 3).map((stated) => `${stated.value} (${JSON.stringify(stated.written)})`).join(', ');
    return `the quote states ${listing}, not ${value}`;
  }
  if (refused.length > 0) return `the quote states ${JSON.stringify(refused[0]!.written)}, which ${refused[0]!.reason}`;
  return `the quote states no number, so not ${value}`;
}

function agrees(value: number, stated: number): boolean {
  if (Math.abs(value - stated) <= 1e-9 * Math.max(1, Math.abs(stated))) return true;
  const decimals = /\.(\d+)$/.exec(String(value))?.[1]?.length ?? (Number.isInteger(value) && !String(value).includes('e') ? 0 : undefined);
  if (decimals === undefined || stated === 0) return false;
  const rounded = Number(stated.toFixed(Math.min(decimals, 20)));
  return rounded === value && Math.abs(value - stated) <= 0.005 * Math.abs(stated);
}
