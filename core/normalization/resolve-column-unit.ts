import { currencyMentions } from './currency-mentions.ts';
import { measurementUnits, type MeasurementUnit } from './measurement-units.ts';

/**
 * What an attribute's `unit` means to normalization: nothing (no unit given), a currency, a
 * convertible unit, or a count of something normalization cannot convert ("stars", "guests").
 */
export type ColumnUnit =
  | { kind: 'none' }
  | { kind: 'currency'; code: string }
  | { kind: 'measure'; unit: MeasurementUnit }
  | { kind: 'count'; label: string };

/**
 * Read the column's unit as a currency or unit spelling ("USD", "€", "euros", "metres", "sq m",
 * "percent"); a rate such as "USD per night" or "EUR/month" is read by what precedes "per" or "/".
 * A spelling standing for several currencies ("$", "dollars") means the first, USD. Read once per
 * spelling: the same (frozen) object comes back for the same `unit`.
 */
export function resolveColumnUnit(unit: string | undefined): ColumnUnit {
  let resolved = resolvedUnits.get(unit);
  if (resolved === undefined) {
    // Bounded: a schema has a few units, but a long-running process may see many schemas.
    if (resolvedUnits.size >= 1000) resolvedUnits.clear();
    resolvedUnits.set(unit, (resolved = Object.freeze(resolve(unit))));
  }
  return resolved;
}

/** Units already read: every number of every quote is read for its column's unit. */
const resolvedUnits = new Map<string | undefined, ColumnUnit>();

function resolve(unit: string | undefined): ColumnUnit {
  const written = unit?.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  if (!written) return { kind: 'none' };
  const head = written.split(/\s+per\s+|\s*\/\s*/)[0] ?? written;
  for (const spelling of [written, head]) {
    const currency = currencyMentions.get(spelling);
    if (currency?.codes[0]) return { kind: 'currency', code: currency.codes[0] };
    const measure = measurementUnits.get(spelling);
    if (measure) return { kind: 'measure', unit: measure };
  }
  return { kind: 'count', label: written };
}
