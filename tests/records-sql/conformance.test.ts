import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../core/index.ts';
import { readSqlResult } from '../../node/duckdb/read-sql-result.ts';
import { InMemorySqlEngine } from '../../records-sql/index.ts';
import { hasTopLevelOrderBy, sameRows } from '../helpers/compare-sql-rows.ts';
import { generatedPatterns } from './helpers/generated-patterns.ts';
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
/** Regular expressions where backtracking and leftmost-first choices show, with texts to match. */
const patterns: GoldRecordTable = {
  table: 'patterns',
  records: {
    columns: [{ name: 'id', type: 'BIGINT' }, { name: 'pattern', type: 'VARCHAR' }, { name: 'text', type: 'VARCHAR' }],
    rows: generatedPatterns(7, 500).map(({ pattern, text }, index) => [index, pattern, text]),
  },
  questions: [],
};
const engine = new InMemorySqlEngine({ [hotels.table]: hotels.records, [worldcup.table]: worldcup.records, texts: texts.records, patterns: patterns.records });
let connection: DuckDBConnection;

beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await createDuckDbTable(connection, hotels);
  await createDuckDbTable(connection, worldcup);
  await createDuckDbTable(connection, texts);
  await createDuckDbTable(connection, patterns);
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
    "SELECT hotel_name, regexp_matches(hotel_name, '^[A-C][a-z]+ (Arch|Gate)'), regexp_full_match(city, 'r.*', 'i') FROM hotels ORDER BY 1",
    "SELECT hotel_name, regexp_extract(hotel_name, '(\\w+) (\\w+)$', 1), regexp_extract(hotel_name, '([aeiou]{2})', 0), regexp_extract(hotel_name, '(x)?y', 1) FROM hotels ORDER BY 1",
    "SELECT regexp_replace(hotel_name, '([A-Z])[a-z]*', '\\1.', 'g'), regexp_replace(hotel_name, 'o', '0'), regexp_replace(city, '', '-', 'g'), regexp_replace(city, 'a*', 'X', 'g') FROM hotels ORDER BY _source",
    "SELECT count(*) FILTER (WHERE regexp_matches(hotel_name, '(?i)HOTEL$')), count(*) FILTER (WHERE regexp_matches(hotel_name, 'hotel', 'i')), count(*) FILTER (WHERE regexp_matches(hotel_name, '\\bGate\\b')), count(*) FILTER (WHERE regexp_matches(hotel_name, 'e{2,}|o+?u')) FROM hotels",
    "SELECT regexp_extract(hotel_name, '<.*?>|[A-Z]\\w*?e', 0), regexp_matches(hotel_name, 'Hotel', 'l'), regexp_matches(hotel_name, '[[:upper:]][[:lower:]]+ [^ ]+ Suites') FROM hotels ORDER BY _source",
    "SELECT regexp_matches(repeat('a', 30), '(a+)+b'), regexp_matches(repeat('a', 3000), '(a|aa)*c'), regexp_matches(repeat('ab', 2000), '(.*)*x'), regexp_full_match(repeat('a', 40), '(a?){40}a{40}')",
  ])('matches regular expressions as DuckDB (RE2) does: %s', async (sql) => {
    await expectSameAsDuckDb(sql);
  });

  it('matches 500 generated patterns as DuckDB does (first match, whole match, first group, global replace)', async () => {
    await expectSameAsDuckDb(
      "SELECT id, regexp_matches(text, pattern), regexp_extract(text, pattern), regexp_extract(text, pattern, 1), regexp_replace(text, pattern, '<\\0>', 'g') FROM patterns ORDER BY id",
      'patterns',
    );
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
    "SELECT id, regexp_matches(body, 'line.second'), regexp_matches(body, 'line.second', 's'), regexp_matches(body, '(?s)line.second'), regexp_matches(body, '^second'), regexp_matches(body, '(?m)^second'), regexp_matches(body, 'line$'), regexp_matches(body, '(?m)line$') FROM texts ORDER BY id",
    "SELECT id, regexp_extract(body, '\\S+$'), regexp_replace(body, '\\s+', ' ', 'g'), regexp_matches(body, 'STRASSE', 'i'), regexp_matches(body, 'köln', 'i'), regexp_extract(body, '.(.)$', 1), regexp_replace(body, '.', '*', 'g') FROM texts ORDER BY id",
    "SELECT id, body LIKE '%line%line', body LIKE '_t_%', body ILIKE '%STRASSE%', body LIKE '%🙂%', body LIKE '__ 🙂 __', body LIKE '50!% off!_%' ESCAPE '!', body LIKE '%', body LIKE '' FROM texts ORDER BY id",
    "SELECT id, replace(body, '', 'x'), replace(body, 'l', ''), length(body), strlen(body), reverse(body), lower(body), split_part(body, ' ', 2) FROM texts ORDER BY id",
  ])('handles line breaks, accents and wide characters as DuckDB does: %s', async (sql) => {
    await expectSameAsDuckDb(sql, 'texts');
  });

  it.each([
    ["SELECT printf('%d', AVG(price_per_night)) FROM hotels", 'Invalid type specifier "d"'],
    ["SELECT regexp_matches(hotel_name, '(a)\\1') FROM hotels", 'invalid escape sequence'],
    ["SELECT regexp_matches(hotel_name, 'a(?=b)') FROM hotels", '(DuckDB'],
    ["SELECT regexp_matches(hotel_name, 'a{1001}') FROM hotels", 'invalid repetition size'],
    ["SELECT regexp_matches(hotel_name, 'a', 'q') FROM hotels", 'Unrecognized Regex option q'],
    ["SELECT regexp_matches(hotel_name, 'a', 'g') FROM hotels", "Option 'g' (global replace) is only valid for regexp_replace"],
    ["SELECT regexp_extract(hotel_name, 'a', 12) FROM hotels", 'Group index must be between 0 and 9'],
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
