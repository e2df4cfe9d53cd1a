import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCoverage } from '../../core/index.ts';
import { DuckDbSqlEngine } from '../../node/duckdb/duckdb-sql-engine.ts';
import { storeTablesSql } from '../../node/duckdb/store/store-tables.ts';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
let engine: DuckDbSqlEngine;
const attributes = ['city', 'price'];

/** Six hotels: Paris a (price stated), b (price missing), c (price dropped), d (unchecked: --no-evidence); Rome e (stated), f (no evidence rows at all). */
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(storeTablesSql);
  await connection.run(`CREATE TABLE hotels AS SELECT * FROM (VALUES
    ('a', 'Paris', 100.0), ('b', 'Paris', NULL), ('c', 'Paris', NULL), ('d', 'Paris', 300.0), ('e', 'Rome', 50.0), ('f', 'Rome', NULL)) t(_source, city, price)`);
  await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, status) VALUES
    ('hotels', 'a', 'city', 'supported'), ('hotels', 'a', 'price', 'supported'),
    ('hotels', 'b', 'city', 'supported'), ('hotels', 'b', 'price', 'missing'),
    ('hotels', 'c', 'city', 'supported'), ('hotels', 'c', 'price', 'unsupported'),
    ('hotels', 'd', 'city', 'unchecked'), ('hotels', 'd', 'price', 'unchecked'),
    ('hotels', 'e', 'city', 'supported'), ('hotels', 'e', 'price', 'supported'),
    ('other', 'f', 'price', 'supported')`);
  engine = new DuckDbSqlEngine(connection);
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

describe('coverage counted by DuckDB from the evidence table', () => {
  it('counts a column the query aggregates over the rows its WHERE selects, and the filtered column over the table', async () => {
    const coverage = await engine.countCoverage(`SELECT avg(h.price) AS average FROM hotels h WHERE h.city = 'Paris' ORDER BY average LIMIT 1`, 'hotels', attributes);
    expect(coverage).toEqual([
      { column: 'city', rows: 6, present: 4, missing: 0, dropped: 0, unknown: 2, conflicting: 0, over: 'table', reason: 'filtered' },
      { column: 'price', rows: 4, present: 1, missing: 1, dropped: 1, unknown: 1, conflicting: 0, over: 'selected', droppedExample: 'c' },
    ]);
  });

  it('counts over every row, and says so, when the selected rows cannot be derived from the statement', async () => {
    const subquery = await engine.countCoverage(`SELECT avg(price) FROM (SELECT * FROM hotels WHERE city = 'Rome')`, 'hotels', attributes);
    expect(subquery).toEqual([
      expect.objectContaining({ column: 'city', rows: 6, over: 'table', reason: 'underivable' }),
      expect.objectContaining({ column: 'price', rows: 6, present: 2, missing: 1, dropped: 1, unknown: 2, over: 'table', reason: 'underivable' }),
    ]);
    // DuckDB lets a WHERE name a select-list alias; without the select list it cannot run alone.
    const alias = await engine.countCoverage(`SELECT price * 2 AS doubled FROM hotels WHERE doubled > 150`, 'hotels', attributes);
    expect(alias).toEqual([expect.objectContaining({ column: 'price', rows: 6, over: 'table', reason: 'underivable' })]);
  });

  it('counts no column for a count(*) without a filter, and every attribute for a SELECT *', async () => {
    expect(await engine.countCoverage('SELECT count(*) FROM hotels', 'hotels', attributes)).toEqual([]);
    expect((await engine.countCoverage('SELECT * FROM hotels', 'hotels', attributes)).map((column) => column.column)).toEqual(attributes);
  });

  it('words unchecked values and rows without evidence as unknown coverage rather than guessing', async () => {
    const coverage = await engine.countCoverage(`SELECT sum(price) FROM hotels WHERE city = 'Rome'`, 'hotels', attributes);
    const note = describeCoverage(coverage, { title: 'Hotels' });
    expect(note).toContain('price: computed over 2 of the 2 hotels the query selects; 1 value has no checked quote (ingested with --no-evidence, or no evidence kept), so coverage is unknown for it.');
  });
});
