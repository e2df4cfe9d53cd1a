import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { ColumnStatistics } from './column-statistics.ts';
import { roundMean } from './round-mean.ts';
import { shortenStatisticsValue } from './shorten-statistics-value.ts';

type RowValue = string | number | boolean | null | undefined;

/** How many distinct string values the prompt lists per column; enough to pick exact filters. */
export const distinctValueCap = 50;

/**
 * Statistics over all records, one entry per schema attribute, from plain rows: the path for
 * engines without SQL aggregates (the Sheets add-on). The DuckDB store computes the same entries
 * with SQL aggregates (`queryColumnStatistics`); both order tied values by code unit, not locale,
 * so that they agree. Every pass is a loop: no array is spread into a call (a spread of 125k
 * numbers into `Math.min` overflows the stack).
 */
export function computeStatistics(schema: RecordSchema, rows: Array<Record<string, RowValue>>): ColumnStatistics[] {
  return schema.attributes.map((attribute) => {
    const statistics: ColumnStatistics = { name: attribute.name, kind: attribute.kind, rowCount: rows.length, nonNullCount: 0 };
    if (attribute.kind === 'number' || attribute.kind === 'integer') {
      let nonZero = 0;
      let finite = 0;
      let sum = 0;
      let minimum = Infinity;
      let maximum = -Infinity;
      for (const row of rows) {
        const value = row[attribute.name];
        if (value === null || value === undefined) continue;
        statistics.nonNullCount += 1;
        const number = Number(value);
        if (!Number.isFinite(number)) continue;
        finite += 1;
        sum += number;
        if (number !== 0) nonZero += 1;
        if (number < minimum) minimum = number;
        if (number > maximum) maximum = number;
      }
      statistics.nonZeroCount = nonZero;
      if (finite > 0) {
        statistics.min = minimum;
        statistics.max = maximum;
        statistics.mean = roundMean(sum / finite);
      }
    } else if (attribute.kind === 'date') {
      let earliest: string | undefined;
      let latest: string | undefined;
      for (const row of rows) {
        const value = row[attribute.name];
        if (value === null || value === undefined) continue;
        statistics.nonNullCount += 1;
        const text = String(value);
        if (earliest === undefined || text < earliest) earliest = text;
        if (latest === undefined || text > latest) latest = text;
      }
      if (earliest !== undefined) {
        statistics.min = earliest;
        statistics.max = latest;
      }
    } else {
      const counts = new Map<string | boolean, number>();
      for (const row of rows) {
        const value = row[attribute.name];
        if (value === null || value === undefined) continue;
        statistics.nonNullCount += 1;
        const key = value as string | boolean;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      statistics.distinctCount = counts.size;
      statistics.values = [...counts.entries()]
        .sort((left, right) => right[1] - left[1] || compareCodeUnits(String(left[0]), String(right[0])))
        .slice(0, distinctValueCap)
        .map(([value, count]) => ({ value: shortenStatisticsValue(value), count }));
    }
    return statistics;
  });
}

function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
