import { normalizeBoolean } from '../normalization/normalize-boolean.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';

const trailingStops = /[.!]+$/;
/** The part after the last label mark (":", "|", "=", "?", a dash between spaces). */
const lastAnswer = /(?:^|[:|=?]|\s[-–—]\s)\s*([^:|=?]*)$/;

/**
 * Whether `quote` agrees with the boolean `value`; null when it does, else the reason. A boolean is
 * usually derived ("Guests can relax in the outdoor pool" is has_pool = true), so a quote is
 * checked only when it ends in an explicit answer: the whole quote, or its part after the last
 * label mark (":", "|", "=", "?", a dash), read as a boolean value is read ("Pool: Yes", "Pets
 * allowed: no", "Parking | ✗"). A quote whose answer disagrees is refused; any other quote stands.
 */
export function quoteStatesBoolean(value: boolean, quote: string, attribute: AttributeDefinition): string | null {
  // The answer is at the end; looking at the last 200 characters keeps a long quote linear.
  const text = quote.trim().slice(-200).replace(trailingStops, '');
  const answer = lastAnswer.exec(text)?.[1]?.trim() ?? text;
  if (!answer) return null;
  const stated = normalizeBoolean(answer, attribute);
  if (stated.issue || typeof stated.value !== 'boolean' || stated.value === value) return null;
  return `the quote says ${JSON.stringify(answer)}, which is ${stated.value}, not ${value}`;
}
