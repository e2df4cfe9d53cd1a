/** US dollars for a summary line: four decimals under a dollar (a run of short documents costs fractions of a cent), two above. */
export function formatUsd(usd: number): string {
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
