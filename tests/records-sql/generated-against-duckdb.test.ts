import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BothEngines, isRefusal, sameRows } from './helpers/both-engines.ts';
import { generatedCases } from './helpers/generated-decimal-and-text-queries.ts';

/**
 * The differential test of records-sql against DuckDB: generated tables and queries over decimal
 * literals, exact arithmetic, casts, rounding, comparisons and the text functions over generated
 * Unicode, each run through both engines. records-sql must give DuckDB's rows exactly (no
 * tolerance: a DECIMAL is exact, and a DOUBLE is the same IEEE arithmetic), fail where DuckDB
 * fails, or refuse ("Not implemented Error: … spreadsheet SQL engine") where it cannot match.
 * The seed is fixed so CI runs the same cases; a failure prints the shrunk case as SQL to paste
 * into DuckDB. `RECORDS_SQL_DIFFERENTIAL_RUNS` and `RECORDS_SQL_DIFFERENTIAL_SEED` explore further
 * (3,000 runs each over seeds 1-9 pass; `RECORDS_SQL_DIFFERENTIAL_TALLY=1` prints the counts).
 */
const runs = Number(process.env.RECORDS_SQL_DIFFERENTIAL_RUNS ?? 300);
const seed = Number(process.env.RECORDS_SQL_DIFFERENTIAL_SEED ?? 20260421);

let engines: BothEngines;

beforeAll(async () => {
  engines = await BothEngines.open();
});

afterAll(() => engines.close());

describe('records-sql against DuckDB on generated decimals and Unicode text', () => {
  it(`answers ${runs} generated queries as DuckDB does, fails where it fails, or refuses`, async () => {
    const tally = { answered: 0, bothFailed: 0, refused: [] as string[] };
    await fc.assert(
      fc.asyncProperty(generatedCases, async (generated) => {
        await engines.load(generated.table);
        const { duckdb, records } = await engines.run(generated.sql);
        if ('rows' in duckdb && 'rows' in records) {
          expect(sameRows(records.rows, duckdb.rows), `records-sql ${JSON.stringify(records.rows)}, DuckDB ${JSON.stringify(duckdb.rows)}`).toBe(true);
          tally.answered += 1;
        } else if ('error' in duckdb) {
          expect('error' in records, `DuckDB fails (${duckdb.error}) where records-sql answers ${JSON.stringify('rows' in records ? records.rows : [])}`).toBe(true);
          tally.bothFailed += 1;
        } else {
          const error = (records as { error: string }).error;
          expect(isRefusal(error), `records-sql fails (${error}) where DuckDB answers ${JSON.stringify(duckdb.rows)}`).toBe(true);
          tally.refused.push(error);
        }
      }),
      { seed, numRuns: runs },
    );
    if (process.env.RECORDS_SQL_DIFFERENTIAL_TALLY) console.log(JSON.stringify({ ...tally, refused: tally.refused.length }));
    // A generator whose queries mostly fail, or an engine that mostly refuses, would pass the checks above and prove nothing.
    expect(tally.answered, `answered ${tally.answered}, both failed ${tally.bothFailed}, refused ${tally.refused.length}`).toBeGreaterThan(runs * 0.6);
    expect(tally.refused.length, tally.refused.join('\n')).toBeLessThan(runs * 0.05);
  }, 60_000);
});
