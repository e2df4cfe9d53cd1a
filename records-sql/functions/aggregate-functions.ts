import { sqlFailure } from '../sql-failure.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';
import { compareSqlValues, groupingKey } from '../values/compare-sql-values.ts';
import { decimalParts, decimalType, widestDecimal } from '../values/decimal-type.ts';
import { formatSqlValue } from '../values/format-sql-value.ts';
import { longDoubleQuotient } from '../values/long-double-quotient.ts';
import { doublePowerOfTen } from '../values/powers-of-ten.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { joinText } from './join-text.ts';

export interface AggregateFunction {
  minimumArguments: number;
  maximumArguments: number;
  returnType(argumentTypes: SqlType[]): SqlType;
  /**
   * `rows` holds one argument list per input row that passed FILTER; rows whose first argument is
   * NULL are already dropped unless `seesNulls` (only `count(*)` needs them).
   */
  aggregate(rows: RuntimeValue[][], argumentTypes: SqlType[]): RuntimeValue;
  seesNulls?: boolean;
}

const numbers = (rows: RuntimeValue[][]) => rows.map((row) => {
  const value = row[0];
  if (typeof value === 'number') return value;
  if (value instanceof SqlDecimal) return value.toDouble();
  if (typeof value === 'boolean') return Number(value);
  return sqlFailure('Binder Error: this aggregate takes numbers; cast the argument or use another aggregate');
});

function sum(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** sum() of DECIMAL values: exact, as DECIMAL(38, scale) (DuckDB adds them in 128 bits). */
function decimalSum(rows: RuntimeValue[][]): SqlDecimal {
  let total = BigInt(0);
  const { scale } = rows[0]![0] as SqlDecimal;
  for (const [value] of rows) total += (value as SqlDecimal).unscaled;
  return new SqlDecimal(total, widestDecimal, scale);
}

/**
 * avg() as DuckDB computes it: over DECIMAL values the exact sum divided by count × 10^scale, in
 * doubles for a DECIMAL of up to 4 digits and in x86-64 `long double` beyond (avg.cpp); over
 * integers the exact sum by the count in `long double`; over DOUBLE values the sum by the count.
 */
function average(rows: RuntimeValue[][], type: SqlType): number | null {
  if (rows.length === 0) return null;
  const first = rows[0]![0];
  if (first instanceof SqlDecimal) {
    const { unscaled: total } = decimalSum(rows);
    const scale = doublePowerOfTen(first.scale);
    if (first.width <= 4) return Number(total) / (rows.length * scale);
    return longDoubleQuotient(total, BigInt(rows.length) * BigInt(scale));
  }
  const values = numbers(rows);
  if (type === 'INTEGER' && values.every((value) => Number.isSafeInteger(value))) {
    let total = BigInt(0);
    for (const value of values) total += BigInt(value);
    return longDoubleQuotient(total, BigInt(rows.length));
  }
  return sum(values) / rows.length;
}

function variance(values: number[], sample: boolean): number | null {
  const count = values.length;
  if (count === 0 || (sample && count === 1)) return null;
  let mean = 0;
  let squares = 0;
  values.forEach((value, index) => {
    const delta = value - mean;
    mean += delta / (index + 1);
    squares += delta * (value - mean);
  });
  return squares / (sample ? count - 1 : count);
}

/**
 * median() and quantiles with DuckDB's interpolation (QuantileInterpolator): between two numbers
 * `low·(1-d) + high·d` in doubles; between two decimals of up to 18 digits `low + trunc((high -
 * low)·d)` on their integers, wider decimals in doubles, truncated.
 */
function quantile(values: RuntimeValue[], fraction: number, continuous: boolean): RuntimeValue {
  if (values.length === 0) return null;
  const sorted = [...values].sort(compareSqlValues);
  const position = (sorted.length - 1) * fraction;
  if (!continuous) return sorted[Math.floor(position)]!;
  const low = sorted[Math.floor(position)]!;
  const high = sorted[Math.ceil(position)]!;
  const delta = position - Math.floor(position);
  if (Math.floor(position) === Math.ceil(position)) return low;
  if (low instanceof SqlDecimal && high instanceof SqlDecimal) {
    const step = low.width <= 18
      ? BigInt(Math.trunc(Number(high.unscaled - low.unscaled) * delta))
      : BigInt(Math.trunc(Number(low.unscaled) * (1 - delta) + Number(high.unscaled) * delta)) - low.unscaled;
    return new SqlDecimal(low.unscaled + step, low.width, low.scale);
  }
  if (typeof low === 'number' && typeof high === 'number') return low * (1 - delta) + high * delta;
  return low;
}

function extreme(rows: RuntimeValue[][], direction: 1 | -1): RuntimeValue {
  let best: RuntimeValue = null;
  for (const [value] of rows) if (value !== null && value !== undefined && (best === null || compareSqlValues(value, best) * direction > 0)) best = value;
  return best;
}

/** `arg_max(arg, value)`: the arg of the row with the largest value (first such row). */
function argumentAtExtreme(rows: RuntimeValue[][], direction: 1 | -1): RuntimeValue {
  let best: RuntimeValue[] | undefined;
  for (const row of rows) {
    const value = row[1];
    if (value === null || value === undefined) continue;
    if (!best || compareSqlValues(value, best[1]!) * direction > 0) best = row;
  }
  return best ? best[0]! : null;
}

/** A quantile's fraction: `0.25` is a DECIMAL literal, which DuckDB casts to DOUBLE. */
const fractionOf = (value: RuntimeValue | undefined) => (value instanceof SqlDecimal ? value.toDouble() : Number(value ?? 0.5));

const sumType = (types: SqlType[]): SqlType => {
  const decimal = decimalParts(types[0] ?? 'UNKNOWN');
  if (decimal) return decimalType(widestDecimal, decimal.scale);
  return types[0] === 'INTEGER' || types[0] === 'BOOLEAN' ? 'INTEGER' : 'DOUBLE';
};
const firstType = (types: SqlType[]) => types[0] ?? 'UNKNOWN';
const double = () => 'DOUBLE' as const;

/** Aggregate functions of the subset, by lower-case name, with DuckDB's NULL and empty-input rules. */
const aggregateFunctions = new Map<string, AggregateFunction>();

/** The aggregate a query calls by `name` (lower-case; `count(*)` is `count_star`), if the subset has it. */
export function findAggregateFunction(name: string): AggregateFunction | undefined {
  return aggregateFunctions.get(name);
}

function define(names: string[], definition: AggregateFunction): void {
  for (const name of names) aggregateFunctions.set(name, definition);
}

define(['count'], { minimumArguments: 0, maximumArguments: 1, returnType: () => 'INTEGER', aggregate: (rows) => rows.length });
define(['count_star'], { minimumArguments: 0, maximumArguments: 0, seesNulls: true, returnType: () => 'INTEGER', aggregate: (rows) => rows.length });
define(['count_if', 'countif'], { minimumArguments: 1, maximumArguments: 1, returnType: () => 'INTEGER', aggregate: (rows) => rows.filter(([value]) => value === true).length });
define(['sum', 'fsum', 'sumkahan', 'kahan_sum'], {
  minimumArguments: 1, maximumArguments: 1, returnType: sumType,
  aggregate: (rows) => (rows.length === 0 ? null : rows[0]![0] instanceof SqlDecimal ? decimalSum(rows) : sum(numbers(rows))),
});
define(['avg', 'mean', 'favg'], { minimumArguments: 1, maximumArguments: 1, returnType: double, aggregate: (rows, types) => average(rows, types[0] ?? 'UNKNOWN') });
define(['min'], { minimumArguments: 1, maximumArguments: 1, returnType: firstType, aggregate: (rows) => extreme(rows, -1) });
define(['max'], { minimumArguments: 1, maximumArguments: 1, returnType: firstType, aggregate: (rows) => extreme(rows, 1) });
define(['arg_max', 'argmax', 'max_by'], { minimumArguments: 2, maximumArguments: 2, returnType: firstType, aggregate: (rows) => argumentAtExtreme(rows, 1) });
define(['arg_min', 'argmin', 'min_by'], { minimumArguments: 2, maximumArguments: 2, returnType: firstType, aggregate: (rows) => argumentAtExtreme(rows, -1) });
define(['any_value', 'first', 'arbitrary'], { minimumArguments: 1, maximumArguments: 1, returnType: firstType, aggregate: (rows) => rows[0]?.[0] ?? null });
define(['last'], { minimumArguments: 1, maximumArguments: 1, returnType: firstType, aggregate: (rows) => rows[rows.length - 1]?.[0] ?? null });
define(['median'], {
  minimumArguments: 1, maximumArguments: 1, returnType: (types) => (types[0] === 'INTEGER' || types[0] === 'DOUBLE' ? 'DOUBLE' : firstType(types)),
  aggregate: (rows) => quantile(rows.map(([value]) => value!), 0.5, true),
});
define(['quantile_cont'], {
  minimumArguments: 2, maximumArguments: 2, returnType: (types) => (decimalParts(types[0] ?? 'UNKNOWN') ? firstType(types) : 'DOUBLE'),
  aggregate: (rows) => quantile(rows.map(([value]) => value!), fractionOf(rows[0]?.[1]), true),
});
define(['quantile_disc', 'quantile'], {
  minimumArguments: 2, maximumArguments: 2, returnType: firstType,
  aggregate: (rows) => quantile(rows.map(([value]) => value!), fractionOf(rows[0]?.[1]), false),
});
define(['mode'], {
  minimumArguments: 1, maximumArguments: 1, returnType: firstType,
  aggregate: (rows) => {
    const counts = new Map<string, { value: RuntimeValue; count: number }>();
    for (const [value] of rows) {
      const key = groupingKey(value!);
      const entry = counts.get(key) ?? { value: value!, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
    let best: { value: RuntimeValue; count: number } | undefined;
    for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
    return best?.value ?? null;
  },
});
define(['stddev', 'stddev_samp'], { minimumArguments: 1, maximumArguments: 1, returnType: double, aggregate: (rows) => { const value = variance(numbers(rows), true); return value === null ? null : Math.sqrt(value); } });
define(['stddev_pop'], { minimumArguments: 1, maximumArguments: 1, returnType: double, aggregate: (rows) => { const value = variance(numbers(rows), false); return value === null ? null : Math.sqrt(value); } });
define(['variance', 'var_samp'], { minimumArguments: 1, maximumArguments: 1, returnType: double, aggregate: (rows) => variance(numbers(rows), true) });
define(['var_pop'], { minimumArguments: 1, maximumArguments: 1, returnType: double, aggregate: (rows) => variance(numbers(rows), false) });
define(['product'], { minimumArguments: 1, maximumArguments: 1, returnType: double, aggregate: (rows) => (rows.length ? numbers(rows).reduce((total, value) => total * value, 1) : null) });
define(['bool_and', 'every'], { minimumArguments: 1, maximumArguments: 1, returnType: () => 'BOOLEAN', aggregate: (rows) => (rows.length ? rows.every(([value]) => value === true) : null) });
define(['bool_or'], { minimumArguments: 1, maximumArguments: 1, returnType: () => 'BOOLEAN', aggregate: (rows) => (rows.length ? rows.some(([value]) => value === true) : null) });
define(['string_agg', 'group_concat', 'listagg'], {
  minimumArguments: 1, maximumArguments: 2, returnType: () => 'VARCHAR',
  aggregate: (rows, types) => (rows.length
    ? joinText(rows.map(([value]) => formatSqlValue(value!, types[0] ?? 'UNKNOWN')!), rows[0]![1] === undefined ? ',' : String(rows[0]![1]))
    : null),
});
define(['approx_count_distinct'], {
  minimumArguments: 1, maximumArguments: 1, returnType: () => 'INTEGER',
  aggregate: (rows) => new Set(rows.map(([value]) => groupingKey(value!))).size,
});
