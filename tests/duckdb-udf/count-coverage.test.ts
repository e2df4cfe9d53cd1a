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

describe('values an answer rests on that lie far from the rest of their column (issue 37, item 4)', () => {
  /** Ten rentals: prices 80-170 and one read in cents (a value in the wrong unit, ×1,000 the rest); years built 1990-2005 and one 2099. */
  beforeAll(async () => {
    await connection.run(`CREATE TABLE rentals AS SELECT * FROM (VALUES
      ('r1', 'Lisbon', 80.0, 1990), ('r2', 'Lisbon', 95.0, 1994), ('r3', 'Lisbon', 110.0, 1996), ('r4', 'Lisbon', 120.0, 1999), ('r5', 'Lisbon', 130.0, 2000),
      ('r6', 'Porto', 140.0, 2001), ('r7', 'Porto', 150.0, 2002), ('r8', 'Porto', 160.0, 2003), ('r9', 'Porto', 170.0, 2005), ('r10', 'Porto', 145000.0, 2099)) t(_source, city, price, built)`);
    await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, status)
      SELECT 'rentals', _source, attribute, 'supported' FROM rentals, (VALUES ('city'), ('price'), ('built')) a(attribute)`);
  });
  const rentalAttributes = ['city', 'price', 'built'];

  it('names the largest value with its document when it is many times the next, and says it on every surface\'s note', async () => {
    const coverage = await engine.countCoverage('SELECT max(price) FROM rentals', 'rentals', rentalAttributes);
    expect(coverage).toEqual([expect.objectContaining({
      column: 'price', rows: 10, present: 10,
      outliers: [{ value: 145000, document: 'r10', side: 'highest', next: 170, times: 853, why: 'srag why r10 price' }],
    })]);
    // The number is not changed: the answer still rests on it, and the note says which document to check.
    expect(describeCoverage(coverage, { title: 'Rentals' })).toBe('price: the largest value, 145,000 (r10), is 853 times the next largest, 170 (see srag why r10 price).');
    expect(describeCoverage(coverage, { title: 'Rentals', whereToLook: (column, document) => `see srag why ${document} ${column} --db rentals.duckdb` }))
      .toContain('(see srag why r10 price --db rentals.duckdb)');
  });

  it('names a year far beyond the others, and only among the rows the query selects', async () => {
    const all = await engine.countCoverage('SELECT avg(built) FROM rentals', 'rentals', rentalAttributes);
    expect(all[0]!.outliers).toEqual([{ value: 2099, document: 'r10', side: 'highest', next: 2005, rest: { lowest: 1990, highest: 2005 }, why: 'srag why r10 built' }]);
    expect(describeCoverage(all, { title: 'Rentals' })).toBe('built: the largest value, 2099 (r10), lies far above the rest (1990 to 2005) (see srag why r10 built).');
    const lisbon = await engine.countCoverage(`SELECT max(price) FROM rentals WHERE city = 'Lisbon'`, 'rentals', rentalAttributes);
    expect(lisbon.find((column) => column.column === 'price')).not.toHaveProperty('outliers');
  });

  it('names no value of a column the query only filters on, nor of a column of text', async () => {
    const filtered = await engine.countCoverage('SELECT count(*) FROM rentals WHERE price > 100', 'rentals', rentalAttributes);
    expect(filtered).toEqual([expect.not.objectContaining({ outliers: expect.anything() })]);
    expect((await engine.countCoverage('SELECT city FROM rentals', 'rentals', rentalAttributes))[0]).not.toHaveProperty('outliers');
  });
});

