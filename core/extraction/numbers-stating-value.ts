import { numbersInText, type NumberInText } from '../normalization/numbers-in-text.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';

/** A percentage as written: "12%", "12 percent". */
const percentWritten = /%|percent|per cent/i;
/** The decimals of a number written out by `String`. */
const decimalsWritten = /\.(\d+)$/;

/** Words that make a number stated without a sign negative ("a loss of $45" is -45). */
const negativeWords = /\b(?:loss|losses|lost|deficit|decrease[sd]?|decline[sd]?|fell|fall(?:en|ing)?|drop(?:ped|s)?|down|negative|minus|lower|outflows?|shortfall|reduction|reduced|below)\b/i;

/**
 * The numbers of `text` that state `value` for `attribute` (see `quoteStatesNumber`), read as the
 * column reads values: equal, or rounding to it at the value's own precision; the magnitude of a
 * negative value next to a word such as "loss"; a percentage in a column without unit, as a fraction.
 * Also every number the text states, for the reason a refusal gives.
 */
export function numbersStatingValue(value: number, text: string, attribute: AttributeDefinition): { stating: readonly NumberInText[]; read: ReturnType<typeof numbersInText> } {
  const read = numbersInText(text, attribute);
  // A loop, not filter with a closure: this runs for every quote and every window of a rival sentence.
  // Made with its first element, not grown from empty by a push; shared and frozen when none states the value.
  let stating: NumberInText[] | undefined;
  for (let index = 0; index < read.numbers.length; index += 1) {
    const stated = read.numbers[index]!;
    if (agrees(value, stated.value)
      || (value < 0 && agrees(-value, stated.value) && negativeWords.test(text))
      || (!attribute.unit && percentWritten.test(stated.written) && agrees(value, stated.value / 100))) {
      if (stating === undefined) stating = [stated];
      else stating.push(stated);
    }
  }
  return { stating: stating ?? noneStating, read };
}

const noneStating: readonly NumberInText[] = Object.freeze([]);

function agrees(value: number, stated: number): boolean {
  if (Math.abs(value - stated) <= 1e-9 * Math.max(1, Math.abs(stated))) return true;
  const decimals = decimalsOf(value);
  if (decimals === undefined || stated === 0) return false;
  const rounded = Number(stated.toFixed(Math.min(decimals, 20)));
  return rounded === value && Math.abs(value - stated) <= 0.005 * Math.abs(stated);
}

/**
 * How many decimals `value` is written with (`String(value)`), 0 for a whole number, undefined for
 * one written with an exponent. The last value's, kept: a value is compared with every number of
 * its quote and of the rival sentences, and reading it again was a string and a match each time.
 */
function decimalsOf(value: number): number | undefined {
  if (value !== lastValue) {
    lastValue = value;
    lastDecimals = decimalsWritten.exec(String(value))?.[1]?.length ?? (Number.isInteger(value) && !String(value).includes('e') ? 0 : undefined);
  }
  return lastDecimals;
}

let lastValue = Number.NaN;
let lastDecimals: number | undefined;
