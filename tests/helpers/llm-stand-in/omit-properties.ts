import type { ModelSlip } from './types.ts';

/**
 * The reply's entries without the properties the omission slips leave out (see `ModelSlip`):
 * `omit-property` on a first ask, `omit-property-always` on every ask; in the `slipProperties`
 * named, or every property when none is named (a reply of `{}`).
 */
export function omitProperties(entries: Array<[string, unknown]>, slips: readonly ModelSlip[], slipProperties: readonly string[], reAsk: boolean): Array<[string, unknown]> {
  const omitting = slips.includes('omit-property-always') || (slips.includes('omit-property') && !reAsk);
  if (!omitting) return entries;
  return entries.filter(([name]) => slipProperties.length > 0 && !slipProperties.includes(name));
}
