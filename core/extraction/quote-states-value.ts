import type { NormalizedValue } from '../normalization/index.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';
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
 */
export function quoteStatesValue(value: Exclude<NormalizedValue, null>, quote: string, attribute: AttributeDefinition): string | null {
  const text = quoteParts(quote).join('\n');
  switch (attribute.kind) {
    case 'number':
    case 'integer':
      return typeof value === 'number' ? quoteStatesNumber(value, text, attribute) : null;
    case 'date':
      return typeof value === 'string' ? quoteStatesDate(value, text) : null;
    case 'boolean':
      return typeof value === 'boolean' ? quoteStatesBoolean(value, text, attribute) : null;
    case 'string':
      return quoteStatesText(String(value), text);
  }
}
