/** A normalized cell. A date is an ISO `YYYY-MM-DD` string; null stands for missing or rejected. */
export type NormalizedValue = string | number | boolean | null;

export type ValueIssueCode =
  | 'not_a_number'
  | 'not_an_integer'
  | 'not_a_boolean'
  | 'not_a_date'
  | 'unit_mismatch'
  | 'currency_mismatch'
  | 'ambiguous'
  | 'not_a_string';

/** Why a raw value became null instead of a cell; `message` is one line a person can act on. */
export interface ValueIssue {
  attribute: string;
  code: ValueIssueCode;
  received: unknown;
  /** What the column takes, e.g. "a number in USD" or "a calendar date (YYYY-MM-DD)". */
  expected: string;
  message: string;
}

/**
 * `issue` is set exactly when a value that was not a missing marker had to be rejected; `value`
 * is then null. A missing marker gives `{ value: null }` without an issue. Results are made by
 * `acceptedValue` and `rejectValue` only, in one shape (`issue` undefined when there is none).
 */
export interface NormalizationResult {
  value: NormalizedValue;
  issue?: ValueIssue;
}
