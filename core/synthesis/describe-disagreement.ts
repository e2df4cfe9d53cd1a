import type { NormalizedValue } from '../normalization/index.ts';

/**
 * Why code's value for a document is not the model's, in one line naming the document, e.g.
 * `read "Volvo" in listing-012.md, where the model read "V60"`; null when they agree — the same
 * normalized value, and a value at all (code reading one where the model read none disagrees).
 */
export function describeDisagreement(code: NormalizedValue, model: NormalizedValue, document: string): string | null {
  if (model !== null && code === model) return null;
  return `read ${showValue(code)} in ${document}, where the model read ${showValue(model)}`;
}

export function showValue(value: NormalizedValue): string {
  return value === null ? 'nothing' : JSON.stringify(value);
}
