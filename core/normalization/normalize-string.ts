import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { acceptedValue } from './accepted-value.ts';
import type { NormalizationResult } from './normalization-result.ts';
import { rejectValue } from './reject-value.ts';
import { singleSpaced } from '../text/single-spaced.ts';

/**
 * Normalize a value for a `string` column: trimmed, whitespace runs (newlines, no-break spaces)
 * collapsed to one space. Finite numbers, bigints and booleans are written out as text; objects,
 * arrays and non-finite numbers are `not_a_string`, since no single text stands for them.
 */
export function normalizeString(raw: unknown, attribute: AttributeDefinition): NormalizationResult {
  if (typeof raw === 'string') return acceptedValue(singleSpaced(raw).trim());
  if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'bigint' || typeof raw === 'boolean') {
    return acceptedValue(String(raw));
  }
  return rejectValue(attribute, 'not_a_string', raw, 'text', 'is not text');
}
