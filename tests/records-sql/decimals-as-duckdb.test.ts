import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../core/index.ts';
import { InMemorySqlEngine } from '../../records-sql/index.ts';
import { BothEngines, sameRows } from './helpers/both-engines.ts';

/**
 * The repros of issue 42 item 7 for numbers, each run through DuckDB and records-sql: DuckDB types
 * `1.1` as DECIMAL(2,1) and computes with decimals exactly, where records-sql used to read every
 * number with a point as a DOUBLE. Each test also states DuckDB's answer, so it reads on its own.
 *
 * Evidence: https://duckdb.org/docs/sql/data_types/numeric ("Fixed-Point Decimals": DECIMAL(WIDTH,
 * SCALE) is exact, the default is DECIMAL(18, 3), + - * of decimals give a decimal), and DuckDB
 * v1.5.5's source (github.com/duckdb/duckdb at tag v1.5.5) for what the page leaves out: literal
 * typing in src/parser/transform/expression/transform_constant.cpp, result types and overflow checks
 * in src/function/scalar/operator/arithmetic.cpp, casts in src/common/operator/cast_operators.cpp and
 * src/function/cast/decimal_cast.cpp, round in extension/core_functions/scalar/math/numeric.cpp,
 * avg in extension/core_functions/aggregate/algebraic/avg.cpp, constant CASE conditions in
 * src/optimizer/rule/case_simplification.cpp. Every answer here was also checked by running DuckDB.
 */
let engines: BothEngines;

beforeAll(async () => {
  engines = await BothEngines.open();
  const rows: SqlValue[][] = Array.from({ length: 10_000 }, (_, index) => [index + 1]);
  await engines.load({ table: 'numbers', records: { columns: [{ name: 'k', type: 'BIGINT' }], rows }, questions: [] });
});

afterAll(() => engines.close());

describe('records-sql computes with DECIMAL values as DuckDB does', () => {
  it('casts 1/3 to DECIMAL(10,2) as 0.33, not 0.3333333333333333', async () => {
    await engines.expectAnswer('SELECT CAST(1/3 AS DECIMAL(10,2))', [[0.33]]);
  });

  it('finds 3 * 1.1 = 3.3 true, because 1.1 is the exact DECIMAL(2,1) and not the double 1.1', async () => {
    await engines.expectAnswer('SELECT 3 * 1.1 = 3.3, 3 * 1.1, 0.1 + 0.2 = 0.3, CAST(0.1 AS DOUBLE) + 0.2 = 0.3', [[true, 3.3, true, false]]);
  });

  it('rounds k * 1.005 to two places as DuckDB does on every one of 10,000 rows (it differed on a third of them)', async () => {
    const sql = 'SELECT k, round(k * 1.005, 2) FROM numbers ORDER BY k';
    const { duckdb, records } = await engines.run(sql);
    if (!('rows' in duckdb) || !('rows' in records)) throw new Error(`a side failed: ${JSON.stringify({ duckdb, records })}`);
    const differing = records.rows.filter((row, index) => row[1] !== duckdb.rows[index]![1]);
    expect(differing.slice(0, 5)).toEqual([]);
    expect(duckdb.rows[0]).toEqual([1, 1.01]);
    expect(sameRows(records.rows, duckdb.rows)).toBe(true);
  });

  it('prints a decimal with every digit of its scale, as DuckDB casts it to text', async () => {
    await engines.expectAnswer("SELECT 1.10 || '', CAST(3 * 1.1 AS VARCHAR), CAST(.5 AS VARCHAR), CAST(-0.05 AS DECIMAL(4,3))::VARCHAR", [['1.10', '3.3', '.5', '-0.050']]);
  });

  it('casts to DECIMAL(p,s) rounding half away from zero, a DOUBLE through its doubled-up digits as DuckDB does', async () => {
    await engines.expectAnswer(
      "SELECT CAST(2.345 AS DECIMAL(10,2)), CAST(-2.345 AS DECIMAL(10,2)), CAST(CAST(2.675 AS DOUBLE) AS DECIMAL(10,2)), CAST(CAST(1.005 AS DOUBLE) AS DECIMAL(10,2)), CAST('1.005' AS DECIMAL(10,2)), CAST(12.5 AS INTEGER)",
      [[2.35, -2.35, 2.68, 1, 1.01, 13]],
    );
  });

  it('rounds decimals half away from zero, and to a negative number of places as DuckDB does', async () => {
    await engines.expectAnswer('SELECT round(2.5), round(-2.5), round(1.25, 1), round(12.5, -1), round(-15.0, -1), round(5.5, -1)', [[3, -3, 1.3, 10, -20, 0]]);
  });

  it('compares a decimal with a DOUBLE as DOUBLE values, with text as a decimal of its own type, and an IN list in its common type', async () => {
    await engines.expectAnswer(
      "SELECT 0.1 = CAST(0.1 AS DOUBLE), 1.5 = '1.54', 1.5 < '1.54', CAST(1.1 AS DOUBLE) * 3 = 3.3, 1.5 IN ('1.54', 2.25), 1.5 IN ('1.54')",
      [[true, true, false, false, false, true]],
    );
  });

  it('sums decimals exactly and averages them as DuckDB does', async () => {
    await engines.expectAnswer('SELECT sum(k * 0.1), avg(k * 0.1), max(k * 1.5) FROM numbers WHERE k <= 7', [[2.8, 0.4, 10.5]]);
  });

  it('fails where DuckDB overflows a DECIMAL, instead of answering with a rounded double', async () => {
    const { duckdb, records } = await engines.run('SELECT 9999999999999999.99 + 0.01');
    expect('error' in duckdb && duckdb.error).toContain('Overflow in addition of DECIMAL(18)');
    expect('error' in records && records.error).toContain('Overflow in addition of DECIMAL(18)');
  });

  it('hands a decimal out of the engine as the number its text spells, as the DuckDB side reads one', async () => {
    const engine = new InMemorySqlEngine({});
    expect((await engine.runReadOnlyQuery('SELECT 1.10, CAST(2 AS DECIMAL(5,2)), -0.0', [])).rows).toEqual([[1.1, 2, 0]]);
  });
});
