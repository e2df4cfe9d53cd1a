import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { computeStatistics } from '../../core/index.ts';
import { formatTable } from '../../node/cli/format-table.ts';
import { queryColumnStatistics } from '../../node/duckdb/store/query-column-statistics.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { statisticsSchema } from '../helpers/statistics-schema.ts';

const schema = statisticsSchema;

const rows = [
  { price: 100, rooms: 0, opened_on: '2011-03-05', city: 'Paris', has_pool: true },
  { price: 250.5, rooms: 12, opened_on: '1999-12-31', city: 'Rome', has_pool: false },
  { price: null, rooms: 30, opened_on: null, city: 'Paris', has_pool: true },
  { price: 0, rooms: null, opened_on: '2020-01-01', city: 'berlin', has_pool: null },
  { price: 60, rooms: 8, opened_on: '2005-06-15', city: 'Äpfel', has_pool: true },
  { price: -3.25, rooms: 8, opened_on: '2005-06-15', city: 'x'.repeat(500), has_pool: false },
  { price: 1e9, rooms: 1, opened_on: null, city: 'Berlin', has_pool: null },
];

let connection: DuckDBConnection;

async function load(table: string, records: Array<Record<string, unknown>>): Promise<void> {
  await connection.run(`CREATE OR REPLACE TABLE ${table} (price DOUBLE, rooms BIGINT, opened_on DATE, city VARCHAR, has_pool BOOLEAN, "_source" VARCHAR)`);
  const appender = await connection.createAppender(table);
  records.forEach((record, index) => {
    appender.appendValue((record.price ?? null) as number | null);
    record.rooms === null || record.rooms === undefined ? appender.appendNull() : appender.appendBigInt(BigInt(record.rooms as number));
    record.opened_on === null || record.opened_on === undefined ? appender.appendNull() : appender.appendVarchar(record.opened_on as string);
    appender.appendValue((record.city ?? null) as string | null);
    appender.appendValue((record.has_pool ?? null) as boolean | null);
    appender.appendVarchar(`doc-${index}.txt`);
    appender.endRow();
  });
  appender.closeSync();
}

beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => connection.closeSync());

describe('statistics computed in DuckDB', () => {
  it('gives exactly what computeStatistics gives for the same rows: counts, ranges, means, listed values and their order', async () => {
    await load('hotels', rows);
    expect(await queryColumnStatistics(connection, 'hotels', schema)).toEqual(computeStatistics(schema, rows));
  });

  it('describes an empty table and all-null columns as core does', async () => {
    await load('empty', []);
    expect(await queryColumnStatistics(connection, 'empty', schema)).toEqual(computeStatistics(schema, []));
    const nulls = [{ price: null, rooms: null, opened_on: null, city: null, has_pool: null }];
    await load('nulls', nulls);
    expect(await queryColumnStatistics(connection, 'nulls', schema)).toEqual(computeStatistics(schema, nulls));
  });

  it('describes a table past the size that crashed the JavaScript path (200,000 rows) without carrying its rows into JavaScript', async () => {
    await connection.run(`CREATE OR REPLACE TABLE big AS SELECT (i % 1000)::DOUBLE AS price, i::BIGINT AS rooms, DATE '2000-01-01' + (i % 365)::INTEGER AS opened_on,
      'city-' || (i % 60) AS city, i % 3 = 0 AS has_pool, 'doc-' || i AS "_source" FROM range(200000) t(i)`);
    const statistics = await queryColumnStatistics(connection, 'big', schema);
    expect(statistics.find((entry) => entry.name === 'price')).toMatchObject({ rowCount: 200_000, nonNullCount: 200_000, nonZeroCount: 199_800, min: 0, max: 999, mean: 499.5 });
    expect(statistics.find((entry) => entry.name === 'rooms')).toMatchObject({ min: 0, max: 199_999 });
    expect(statistics.find((entry) => entry.name === 'opened_on')).toMatchObject({ min: '2000-01-01', max: '2000-12-30' });
    const city = statistics.find((entry) => entry.name === 'city')!;
    expect(city.distinctCount).toBe(60);
    expect(city.values).toHaveLength(50);
    expect(statistics.find((entry) => entry.name === 'has_pool')!.values).toEqual([{ value: false, count: 133_333 }, { value: true, count: 66_667 }]);
  });
});

describe('SragStore.refreshStatistics', () => {
  it('stores the statistics of a record table past the size at which every ingest used to fail', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-statistics-')), 'store.duckdb'));
    try {
      await store.registerTable('hotels', schema);
      await store.connection.run(`INSERT INTO hotels SELECT i % 500, i, NULL, 'c' || (i % 3), NULL, 'doc-' || i, 'hash' FROM range(200000) t(i)`);
      const statistics = await store.refreshStatistics('hotels', schema);
      expect(statistics.find((entry) => entry.name === 'price')).toMatchObject({ rowCount: 200_000, min: 0, max: 499 });
      expect((await store.tableInfo('hotels')).statistics).toEqual(statistics);
    } finally {
      store.close();
    }
  });
});

describe('SragStore.refreshStatistics, failing part way', () => {
  it('leaves the statistics and the catalog profile of the last refresh whole, none of them half rebuilt', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-statistics-')), 'store.duckdb'));
    try {
      await store.registerTable('hotels', schema);
      await store.connection.run(`INSERT INTO hotels SELECT i % 500, i, NULL, 'c' || (i % 3), NULL, 'doc-' || i, 'hash' FROM range(3000) t(i)`);
      await store.refreshStatistics('hotels', schema);
      const catalog = async () => ({
        statistics: (await store.tableInfo('hotels')).statistics,
        profiles: (await store.connection.runAndReadAll("SELECT column_name, non_null, distinct_count FROM srag_column_profiles WHERE table_name = 'hotels' ORDER BY ALL")).getRowsJS(),
        values: (await store.connection.runAndReadAll("SELECT column_name, count(*) FROM srag_column_values WHERE table_name = 'hotels' GROUP BY ALL ORDER BY ALL")).getRowsJS(),
      });
      const before = await catalog();
      expect(before.statistics.find((entry) => entry.name === 'city')).toMatchObject({ rowCount: 3000, distinctCount: 3 });
      expect(before.profiles.length).toBeGreaterThan(0);
      expect(before.values.length).toBeGreaterThan(0);
      // More rows, then a refresh that fails after its statistics and part of the profile were written.
      await store.connection.run(`INSERT INTO hotels SELECT i % 500, i, NULL, 'd' || (i % 7), NULL, 'doc-' || i, 'hash' FROM range(3000, 5000) t(i)`);
      const run = store.connection.run.bind(store.connection);
      let valuesWritten = 0;
      const failing = vi.spyOn(store.connection, 'run').mockImplementation(async (sql, ...rest) => {
        if (String(sql).startsWith('INSERT INTO srag_column_values') && ++valuesWritten === 1) throw new Error('disk full (simulated)');
        return run(sql, ...rest);
      });
      await expect(store.refreshStatistics('hotels', schema)).rejects.toThrow(/disk full/);
      failing.mockRestore();
      expect(valuesWritten).toBe(1);
      expect(await catalog()).toEqual(before);
      // The next refresh writes all of it.
      await store.refreshStatistics('hotels', schema);
      expect((await catalog()).statistics.find((entry) => entry.name === 'city')).toMatchObject({ rowCount: 5000, distinctCount: 10 });
    } finally {
      store.close();
    }
  });
});

describe('the terminal table', () => {
  it('formats 200,000 rows (a spread into Math.max overflowed the stack past ~120k)', () => {
    const result = { columns: ['n'], rows: Array.from({ length: 200_000 }, (_, index) => [index]) };
    const text = formatTable(result);
    expect(text.split('\n').at(-1)).toBe('(200000 rows)');
    expect(text.split('\n')[0]).toBe('n');
  });

  it('shows the first rows only when asked, and says what the engine cut', () => {
    const result = {
      columns: ['name'],
      rows: [['a'], ['b'], ['c']],
      cut: { rowsOmitted: true, cellsShortened: 2, maximumRows: 3, maximumCellCharacters: 1000 },
    };
    expect(formatTable(result, { maximumRows: 2 }).split('\n').at(-1)).toBe('(3+ rows; 2 shown; only the first 3 rows were returned (the query produced more); 2 cells were cut to 1000 characters)');
  });
});
