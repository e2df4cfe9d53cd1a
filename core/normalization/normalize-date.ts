import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { acceptedValue } from './accepted-value.ts';
import type { NormalizationResult } from './normalization-result.ts';
import { readCalendarDate } from './read-calendar-date.ts';
import { rejectValue } from './reject-value.ts';

const expected = 'a calendar date (YYYY-MM-DD)';

/**
 * Normalize a value for a `date` column to `YYYY-MM-DD` (rules in `readCalendarDate`). A valid JS
 * `Date` gives its UTC day. Numbers are rejected: an epoch or spreadsheet serial cannot be told
 * from a year or a count.
 */
export function normalizeDate(raw: unknown, attribute: AttributeDefinition): NormalizationResult {
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return rejectValue(attribute, 'not_a_date', raw, expected, 'is an invalid Date');
    return acceptedValue(raw.toISOString().slice(0, 10));
  }
  if (typeof raw !== 'string') return rejectValue(attribute, 'not_a_date', raw, expected, 'is not a date');
  const reading = readCalendarDate(raw);
  if ('date' in reading) return acceptedValue(reading.date);
  return rejectValue(attribute, reading.failure, raw, expected, reading.reason);
}
