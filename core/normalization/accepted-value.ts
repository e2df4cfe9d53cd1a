import type { NormalizationResult, NormalizedValue } from './normalization-result.ts';

/**
 * The result for a value that normalized (or a missing marker, `null`): `issue` written out as
 * undefined, so that every result has the one shape `rejectValue` gives too (value, then issue).
 * A result of `{ value }` here and `{ value, issue }` there came in two shapes, which every read
 * of a result, for every value checked, had to tell apart.
 */
export function acceptedValue(value: NormalizedValue): NormalizationResult {
  return { value, issue: undefined };
}
