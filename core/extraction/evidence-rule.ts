/** The prompt rule that asks for a quote per value, the same for one document and for a batch. */
export const evidenceRule =
  '- Give every value as {"value": …, "quote": …}: the quote is the shortest passage of the document (at most 200 characters) that states the value, copied exactly, not paraphrased; null when the value is null.';
