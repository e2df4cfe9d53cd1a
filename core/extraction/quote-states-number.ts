import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { countListedItems } from './count-listed-items.ts';
import { numbersStatingValue } from './numbers-stating-value.ts';
import { isAscii } from '../text/is-ascii.ts';

/**
 * Whether `quote` states the number `value` for `attribute`; null when it does, else the reason.
 * The quote's numbers are read as the column reads values (`numbersInText`: unit, currency, scale,
 * magnitude words), and one must equal the value, or round to it at the value's own precision
 * (9.43 stated as 9.4 within 0.5 %). Derived values are accepted in three forms only:
 * - a negative value whose magnitude is stated next to a word such as "loss", "decline" or "fell";
 * - a fraction of a percentage in a column without unit ("12%" supports 0.12 and 12);
 * - a count in an integer column, when the quote lists that many items and states no number (see
 *   `countListedItems`).
 * When `literals` is given, the digits (or number words) of each number that states the value are
 * pushed onto it, lower case ("470.00", "three"), for finding them in the folded document.
 */
export function quoteStatesNumber(value: number, quote: string, attribute: AttributeDefinition, literals?: string[]): string | null {
  const { stating, read: { numbers, refused } } = numbersStatingValue(value, quote, attribute);
  if (stating.length > 0) {
    if (literals) {
      const written = isAscii(quote) ? quote : quote.normalize('NFKC');
      for (let index = 0; index < stating.length; index += 1) literals.push(written.slice(stating[index]!.start, stating[index]!.end).toLowerCase());
    }
    return null;
  }
  // A count is derived from a list only where the quote states no number: "A 3-star hotel", its lines broken by a re-typing, is no list of four.
  if (attribute.kind === 'integer' && numbers.length === 0 && countListedItems(quote, attribute) === value) return null;
  if (numbers.length > 0) {
    const listing = numbers.slice(0, 3).map((stated) => `${stated.value} (${JSON.stringify(stated.written)})`).join(', ');
    return `the quote states ${listing}, not ${value}`;
  }
  if (refused.length > 0) return `the quote states ${JSON.stringify(refused[0]!.written)}, which ${refused[0]!.reason}`;
  return `the quote states no number, so not ${value}`;
}
