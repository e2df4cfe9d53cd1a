import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../core/index.ts';
import { readSqlResult } from '../../duckdb-udf/src/read-sql-result.ts';
import { InMemorySqlEngine } from '../../records-sql/index.ts';
import { hasTopLevelOrderBy, sameRows } from '../helpers/compare-sql-rows.ts';
import { createDuckDbTable, readGoldRecordTable, type GoldRecordTable } from './helpers/gold-record-tables.ts';

/**
 * The conformance suite of records-sql: the same SQL over the same records, through DuckDB and
 * through the engine, gives the same rows (as multisets when the query has no ORDER BY), and the
 * same queries fail. Every gold query of both sample corpora is here, and the forms around them.
 */
const hotels = readGoldRecordTable('examples/hotels');
const worldcup = readGoldRecordTable('examples/worldcup');
/** Text with line breaks, accents, wide characters and LIKE's own symbols, which the records lack. */
const texts: GoldRecordTable = {
  table: 'texts',
  records: {
    columns: [{ name: 'id', type: 'BIGINT' }, { name: 'body', type: 'VARCHAR' }],
    rows: [[1, 'first line\nsecond line'], [2, 'Straße in Köln'], [3, 'été 🙂 ok'], [4, '50% off_now'], [5, ''], [6, 'Tab\tseparated\r\nCRLF']],
  },
  questions: [],
};
const engine = new InMemorySqlEngine({ [hotels.table]: hotels.records, [worldcup.table]: worldcup.records, texts: texts.records });
let connection: DuckDBConnection;

beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await createDuckDbTable(connection, hotels);
  await createDuckDbTable(connection, worldcup);
  await createDuckDbTable(connection, texts);
});

afterAll(() => connection.closeSync());

type Outcome = { rows: SqlValue[][] } | { error: string };

async function outcome(run: () => Promise<{ rows: SqlValue[][] }>): Promise<Outcome> {
  try {
    return { rows: (await run()).rows };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]! };
  }
}

async function bothEngines(sql: string, table: string): Promise<{ duckdb: Outcome; records: Outcome }> {
  const duckdb = await outcome(async () => readSqlResult(await connection.runAndReadAll(sql)));
  const records = await outcome(() => engine.runReadOnlyQuery(sql, [table]));
  return { duckdb, records };
}

async function expectSameAsDuckDb(sql: string, table = hotels.table): Promise<void> {
  const { duckdb, records } = await bothEngines(sql, table);
  if ('error' in duckdb) throw new Error(`DuckDB failed on ${sql}: ${duckdb.error}`);
  if ('error' in records) throw new Error(`records-sql failed on ${sql}: ${records.error}`);
  if (!sameRows(records.rows, duckdb.rows, hasTopLevelOrderBy(sql))) {
    expect({ sql, rows: records.rows }).toEqual({ sql, rows: duckdb.rows });
  }
}

describe('records-sql answers as DuckDB does (the conformance suite)', () => {
  it.each(hotels.questions.map((entry) => [entry.question, entry.sql]))('answers "%s" as DuckDB does', async (_question, sql) => {
    await expectSameAsDuckDb(sql, hotels.table);
  });

  it.each(worldcup.questions.map((entry) => [entry.question, entry.sql]))('answers "%s" (World Cup) as DuckDB does', async (_question, sql) => {
    await expectSameAsDuckDb(sql, worldcup.table);
  });

  it.each([
    'SELECT city, COUNT(*) AS n, ROUND(AVG(price_per_night), 2) AS average FROM hotels GROUP BY city HAVING COUNT(*) > 2 ORDER BY n DESC, city',
    'SELECT country, MIN(opened_date), MAX(opened_date), COUNT(opened_date) FROM hotels GROUP BY ALL ORDER BY 1',
    'SELECT hotel_name, price_per_night FROM hotels WHERE price_per_night > (SELECT AVG(h2.price_per_night) FROM hotels h2 WHERE h2.city = hotels.city) ORDER BY price_per_night DESC, hotel_name',
    'WITH cheap AS (SELECT * FROM hotels WHERE price_per_night < 200) SELECT city, count(*) FROM cheap GROUP BY city ORDER BY 2 DESC, 1',
    'SELECT a.hotel_name, b.hotel_name FROM hotels a JOIN hotels b ON a.city = b.city AND a.hotel_name < b.hotel_name WHERE a.star_rating = 5 ORDER BY 1, 2',
    "SELECT hotel_name FROM hotels WHERE hotel_name ILIKE '%gate%' OR city LIKE 'P_r%' ORDER BY hotel_name",
    'SELECT star_rating, COUNT(*) FILTER (WHERE has_pool), arg_max(hotel_name, guest_rating), median(price_per_night) FROM hotels GROUP BY star_rating ORDER BY star_rating NULLS FIRST',
    "SELECT printf('%s has %d rooms', hotel_name, total_rooms) FROM hotels WHERE total_rooms IS NOT NULL ORDER BY total_rooms DESC, hotel_name LIMIT 3",
    "SELECT year(opened_date) AS y, month(opened_date), date_diff('day', opened_date, DATE '2024-01-01') FROM hotels WHERE opened_date IS NOT NULL ORDER BY y, 2, 3 LIMIT 5",
    "SELECT CASE WHEN price_per_night >= 400 THEN 'luxury' WHEN price_per_night >= 200 THEN 'mid' ELSE 'budget' END AS band, COUNT(*) FROM hotels GROUP BY band ORDER BY band",
    'SELECT DISTINCT country FROM hotels ORDER BY country DESC',
    'SELECT COUNT(DISTINCT city), SUM(CASE WHEN pets_allowed THEN 1 ELSE 0 END), AVG(star_rating) FROM hotels',
    'SELECT hotel_name FROM hotels WHERE manager_name IS NULL AND opened_date IS NULL ORDER BY 1',
    'SELECT city FROM hotels WHERE star_rating = 5 UNION SELECT city FROM hotels WHERE price_per_night < 120 ORDER BY city',
    "SELECT CAST(price_per_night AS INTEGER), price_per_night::VARCHAR, star_rating || ' stars', opened_date::VARCHAR FROM hotels ORDER BY _source LIMIT 4",
    "SELECT strftime(opened_date, '%Y-%m'), dayofweek(opened_date), opened_date + 30 FROM hotels WHERE opened_date IS NOT NULL ORDER BY _source LIMIT 4",
    'SELECT guest_rating FROM hotels ORDER BY guest_rating DESC NULLS LAST, hotel_name LIMIT 5 OFFSET 2',
    "SELECT COUNT(*) FROM hotels WHERE city IN ('Rome', 'Paris') AND star_rating BETWEEN 3 AND 4 AND NOT has_pool",
    'SELECT star_rating, string_agg(hotel_name, \'; \') FROM (SELECT * FROM hotels ORDER BY hotel_name) t WHERE star_rating = 2 GROUP BY star_rating',
    'SELECT 1/0 IS NULL, 7 // 2, -7 % 3, 10 / 4, round(2.5), round(-2.5), round(guest_rating, 1) FROM hotels LIMIT 1',
  ])('runs %s as DuckDB does', async (sql) => {
    await expectSameAsDuckDb(sql);
  });

  it.each([
    "SELECT repeat('a', 3000) LIKE '%a%a%a%a%a%a%b', repeat('a', 3000) || 'b' LIKE '%a%a%a%a%a%a%b', repeat('ab', 1500) ILIKE '%AB%ab%_B', length(repeat('ab', 20000))",
    "SELECT hotel_name FROM hotels WHERE hotel_name LIKE '%a%e%' AND hotel_name NOT LIKE '_o%' AND city ILIKE '%A%' AND hotel_name LIKE '%Hotel' ORDER BY 1",
    "SELECT 'a%b' LIKE 'a!%b' ESCAPE '!', 'axb' LIKE 'a!%b' ESCAPE '!', 'été' LIKE '_t_', 'abc' LIKE '%%c', 'abc' LIKE 'abc%', 'abc' LIKE '%abc', '' LIKE '%', 'ab' LIKE 'a_b'",
  ])('matches LIKE patterns as DuckDB does, without backtracking: %s', async (sql) => {
    await expectSameAsDuckDb(sql);
  });

  it('repeats text as often as asked, as DuckDB does (no silent cap)', async () => {
    await expectSameAsDuckDb("SELECT length(repeat('ab', 20000)), length(repeat('x', 0)), repeat('ab', 3)");
  });

  it.each([
    "SELECT id, body LIKE '%line%line', body LIKE '_t_%', body ILIKE '%STRASSE%', body LIKE '%🙂%', body LIKE '__ 🙂 __', body LIKE '50!% off!_%' ESCAPE '!', body LIKE '%', body LIKE '' FROM texts ORDER BY id",
    "SELECT id, replace(body, '', 'x'), replace(body, 'l', ''), length(body), strlen(body), reverse(body), lower(body), split_part(body, ' ', 2) FROM texts ORDER BY id",
  ])('handles line breaks, accents and wide characters as DuckDB does: %s', async (sql) => {
    await expectSameAsDuckDb(sql, 'texts');
  });

  it.each([
    ["SELECT printf('%d', AVG(price_per_night)) FROM hotels", 'Invalid type specifier "d"'],
    ['SELECT hotel_name, COUNT(*) FROM hotels GROUP BY city', 'must appear in the GROUP BY clause'],
    ['SELECT no_such_column FROM hotels', 'Referenced column "no_such_column" not found'],
    ['SELECT (SELECT hotel_name FROM hotels)', 'More than one row returned by a subquery'],
    ['SELECT COUNT(*) FROM hotels WHERE city = 4', 'Could not convert string'],
  ])('fails on %s with an error the repair round can use, as DuckDB does', async (sql, message) => {
    const { duckdb, records } = await bothEngines(sql, hotels.table);
    expect('error' in duckdb).toBe(true);
    expect('error' in records ? records.error : 'no error').toContain(message);
  });
});
