import type { TableDetail } from './api-types.ts';

/** Aggregates whose result is in the unit of what they aggregate (not count, which counts). */
const sameUnit = '(?:avg|mean|sum|min|max|median|mode|any_value|first|last|arg_min|arg_max|quantile_cont|quantile_disc|percentile_cont|percentile_disc)';
/** The same, as the words a query's alias starts with ("average_price_per_night"). */
const sameUnitWords = '(?:avg|average|mean|sum|total|min|minimum|lowest|cheapest|max|maximum|highest|median)';

/**
 * The unit of a result column, from the schema of the tables the answer used: the column is an
 * attribute (`price_per_night`, `h.price_per_night`), an aggregate of one that keeps its unit
 * (`avg(price_per_night)`), or an alias saying so (`average_price_per_night`). Undefined when the
 * column is none of these, or the attribute has no unit, or the tables' units for it differ — then
 * no unit is shown rather than a wrong one.
 */
export function columnUnit(column: string, tables: readonly TableDetail[]): string | undefined {
  const units = new Set<string>();
  for (const table of tables) {
    for (const attribute of table.attributes) {
      if (!attribute.unit || !namesAttribute(column, attribute.name)) continue;
      units.add(attribute.unit);
    }
  }
  return units.size === 1 ? [...units][0] : undefined;
}

function namesAttribute(column: string, attribute: string): boolean {
  const name = attribute.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const qualified = `(?:"?\\w+"?\\.)?"?${name}"?`;
  return new RegExp(`^(?:${qualified}|${sameUnit}\\((?:distinct\\s+)?${qualified}(?:,[^)]*)?\\)|${sameUnitWords}_${name})$`, 'i').test(column.trim());
}
