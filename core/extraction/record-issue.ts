/**
 * A problem with one attribute of one document's record, kept as data (zod's style): the CLI,
 * the SQL functions and the Sheets add-on each render it once, at their edge.
 */
export interface RecordIssue {
  /** The attribute, or for an item of a child entity `rooms[2].price_per_night` (its place in the reply). */
  attribute: string;
  code:
    | 'not_a_number' | 'not_an_integer' | 'not_a_boolean' | 'not_a_date' | 'not_a_string'
    | 'unit_mismatch' | 'currency_mismatch' | 'ambiguous'
    | 'unsupported_quote' | 'missing_quote' | 'value_not_in_quote' | 'conflicting_values'
    | 'not_a_list' | 'not_an_item'
    | 'quote_too_long';
  message: string;
  received?: unknown;
}

/** What the record holds for one attribute, and why; stored per document and attribute. */
export interface AttributeEvidence {
  attribute: string;
  /** The normalized value that reached the table (NULL when unsupported or invalid). */
  value: string | number | boolean | null;
  /** What the model returned before normalization. */
  raw: unknown;
  /** The verbatim passage the model cited; null when none. */
  quote: string | null;
  status: 'supported' | 'missing' | 'unsupported' | 'invalid' | 'conflict' | 'unchecked';
  reason: string | null;
  /** `code` when a synthesized extractor read the value (`srag ingest --synthesize`); absent for the model. */
  origin?: 'code';
}
