/**
 * A column mean as statistics keep it: 10 significant digits, enough for any filter, and the same
 * whichever engine summed (DuckDB and a JavaScript loop add in different orders).
 */
export function roundMean(value: number): number {
  return Number(value.toPrecision(10));
}
