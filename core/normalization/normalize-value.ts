import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { acceptedValue } from './accepted-value.ts';
import type { NormalizationResult } from './normalization-result.ts';
import { isMissingValue } from './is-missing-value.ts';
import { normalizeBoolean } from './normalize-boolean.ts';
import { normalizeDate } from './normalize-date.ts';
import { normalizeNumber } from './normalize-number.ts';
import { normalizeString } from './normalize-string.ts';

/**
 * Validate and normalize one extracted value for its column (S-RAG paper §3.2.2), so that SQL can
 * aggregate the column. Never throws and never guesses: a missing marker gives `{ value: null }`, a
 * value that cannot be normalized gives `{ value: null, issue }`. A boolean column reads "none" and
 * "not available" as false before treating anything as missing.
 */
export function normalizeValue(raw: unknown, attribute: AttributeDefinition): NormalizationResult {
  if (attribute.kind === 'boolean') return normalizeBoolean(raw, attribute);
  if (isMissingValue(raw)) return acceptedValue(null);
  switch (attribute.kind) {
    case 'number':
    case 'integer':
      return normalizeNumber(raw, attribute);
    case 'date':
      return normalizeDate(raw, attribute);
    case 'string':
      return normalizeString(raw, attribute);
  }
}
