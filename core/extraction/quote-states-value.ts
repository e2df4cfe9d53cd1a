import type { NormalizedValue } from '../normalization/index.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { quoteCoveredText, longestCoveredText } from './quote-covered-text.ts';
import type { QuoteInDocument } from './quote-in-document.ts';
import { quoteIsAboutAttribute } from './quote-is-about-attribute.ts';
import { quoteParts } from './quote-parts.ts';
import { quoteStatesBoolean } from './quote-states-boolean.ts';
import { quoteStatesDate } from './quote-states-date.ts';
import { quoteStatesNumber } from './quote-states-number.ts';
import { quoteStatesText } from './quote-states-text.ts';

/**
 * Whether a quote that occurs in the document also states the normalized value the model gave
 * with it; null when it does, else a one-line reason. What "states" means depends on the kind
 * (each rule is in its function): numbers are read from the quote as the column reads values,
 * dates need their day and month, text needs its words, and booleans are checked only against an
 * explicit yes/no, since they are usually derived. The quote is read without its elisions and
 * list markers, passage by passage.
 *
 * With `where` (the quote located in its document, `quoteLocator`), two more rules apply:
 * - an elided quote that does not state the value in its own words is read over the document's
 *   text it covers, first passage to last (`quoteCoveredText`): a model elides the middle of what
 *   it copies, value and all ("Expected compensation: 100.25 … dollars a year.");
 * - a number must be about the attribute, not only equal to a number of the quote
 *   (`quoteIsAboutAttribute`): "a team of 7 engineers" does not state 7 years of experience.
 */
export function quoteStatesValue(value: Exclude<NormalizedValue, null>, quote: string, attribute: AttributeDefinition, where?: QuoteInDocument): string | null {
  const literals: string[] = [];
  const parts = quoteParts(quote);
  const reason = statesByKind(value, parts.length === 1 ? parts[0]! : parts.join('\n'), attribute, literals);
  if (reason !== null && !(where && where.passages > 1 && coveredTextStates(value, quote, attribute, where, literals))) return reason;
  if (where && literals.length && typeof value === 'number') return quoteIsAboutAttribute(value, where, attribute, literals);
  return null;
}

function statesByKind(value: Exclude<NormalizedValue, null>, text: string, attribute: AttributeDefinition, literals?: string[]): string | null {
  switch (attribute.kind) {
    case 'number':
    case 'integer':
      return typeof value === 'number' ? quoteStatesNumber(value, text, attribute, literals) : null;
    case 'date':
      return typeof value === 'string' ? quoteStatesDate(value, text) : null;
    case 'boolean':
      return typeof value === 'boolean' ? quoteStatesBoolean(value, text, attribute) : null;
    case 'string':
      return quoteStatesText(String(value), text);
  }
}

/** Whether the document's text an elided quote covers states the value: as written, else as folded (diacritics and all). */
function coveredTextStates(value: Exclude<NormalizedValue, null>, quote: string, attribute: AttributeDefinition, where: QuoteInDocument, literals: string[]): boolean {
  const covered = quoteCoveredText(where.document.source, quote);
  if (covered !== undefined) return statesByKind(value, covered, attribute, literals) === null;
  return where.spans.some((span) => span.end - span.start <= longestCoveredText && statesByKind(value, where.document.text.slice(span.start, span.end), attribute, literals) === null);
}
