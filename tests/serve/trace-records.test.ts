import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordTable, TableMaker } from '../../app/index.ts';
import type { AttributeKind } from '../../core/index.ts';
import { readSqlResult } from '../../node/duckdb/read-sql-result.ts';
import { readTracePlan } from '../../node/duckdb/sandbox/read-trace-plan.ts';
import { traceRecords, type TracedAnswer } from '../../node/duckdb/trace-records.ts';

// The records behind an answer's rows (GET /answers/{id}/records), derived from its SQL: what the
// plan decides for each form of statement, and what the sandbox then selects, over an in-memory
// database of two small tables of documents, a child table and an imported one.

let instance: DuckDBInstance;
let connection: DuckDBConnection;

function table(name: string, madeBy: TableMaker, columns: Array<[string, string, AttributeKind?]>, parent?: string): RecordTable {
  const attributes = columns.filter(([, , kind]) => kind !== undefined).map(([column, , kind]) => ({ name: column, kind: kind!, description: column, examples: [] }));
  return {
    name, madeBy, statistics: [], statisticsKept: true, aliases: [],
    origin: madeBy === 'srag import' ? 'imported' : 'extracted',
    schema: { title: name, attributes },
    columns: columns.map(([column, type]) => ({ name: column, type })),
    evidence: madeBy === 'srag import' ? null : { name },
    ...(parent ? { parent: { table: parent, entity: { name: name.slice(parent.length + 2), description: '', attributes } } } : {}),
  } as RecordTable;
}

const hotels = table('hotels', 'srag ingest', [['_source', 'VARCHAR'], ['name', 'VARCHAR', 'string'], ['city', 'VARCHAR', 'string'], ['price', 'DOUBLE', 'number'], ['opened', 'DATE', 'date'], ['manager', 'VARCHAR', 'string']]);
const rooms = table('hotels__rooms', 'srag ingest', [['_source', 'VARCHAR'], ['_position', 'INTEGER'], ['room_type', 'VARCHAR', 'string'], ['sleeps', 'INTEGER', 'integer']], 'hotels');
const cities = table('cities', 'srag import', [['city', 'VARCHAR', 'string'], ['population', 'BIGINT', 'integer']]);
const tables = [hotels, rooms, cities];

/** An answer as `ask` gives it: the SQL, its tables and its result (run here directly: the test's own SQL). */
async function answer(sql: string, chosen: RecordTable[] = [hotels]): Promise<TracedAnswer> {
  const result = readSqlResult(await connection.runAndReadAll(sql));
  return { sql, chosen, columns: result.columns, rows: result.rows };
}

async function plan(sql: string, chosen: RecordTable[] = [hotels]) {
  const serialized = JSON.parse(String((await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])).getRowsJS()[0]![0])) as { statements: Array<{ node: unknown }> };
  const aggregates = new Set((await connection.runAndReadAll("SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE function_type = 'aggregate'")).getRowsJS().map((row) => String(row[0])));
  return readTracePlan(serialized, chosen, aggregates, (await answer(sql, chosen)).columns);
}

/** The traced records' value of one column, per record. */
async function traced(sql: string, row: number | undefined, column: string, chosen: RecordTable[] = [hotels]) {
  const records = await traceRecords(connection, await answer(sql, chosen), { row, limit: 100 });
  if ('untraceable' in records) throw new Error(records.untraceable);
  const index = records.columns.findIndex((candidate) => candidate.name === column);
  return { ...records, values: records.rows.map((cells) => cells[index]) };
}

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`CREATE TABLE hotels AS SELECT * FROM (VALUES
    ('a.md', 'Amber', 'Paris', 120.5, DATE '2016-10-15', 'Ann'),
    ('b.md', 'Birch', 'Paris', 99.1, DATE '1958-01-02', NULL),
    ('c.md', 'Cedar', 'Rome', 210.0, DATE '2016-10-15', 'Carl'),
    ('d.md', 'Dune', 'Rome', NULL, NULL, NULL),
    ('e.md', 'Elm', 'Lisbon', 80.25, DATE '2001-05-05', 'Eve')) t(_source, name, city, price, opened, manager)`);
  await connection.run(`CREATE TABLE hotels__rooms AS SELECT * FROM (VALUES
    ('a.md', 1, 'Single', 1), ('a.md', 2, 'Double', 2), ('c.md', 1, 'Double', 2), ('e.md', 1, 'Suite', 4)) t(_source, _position, room_type, sleeps)`);
  await connection.run(`CREATE TABLE cities AS SELECT * FROM (VALUES ('Paris', 2100000), ('Rome', 2800000), ('Lisbon', 545000)) t(city, population)`);
  // Evidence tables the exporter may be asked for are not needed: tracing reads rows only.
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

describe('which records a result row rests on, read from its SQL', () => {
  it('narrows a GROUP BY to the row\'s group whether the group is named, aliased, numbered or ALL', async () => {
    for (const sql of [
      'SELECT city, count(*) FROM hotels GROUP BY city',
      'SELECT h.city AS town, count(*) FROM hotels h GROUP BY town',
      'SELECT city, avg(price) FROM hotels GROUP BY 1',
      'SELECT city, max(price) FROM hotels GROUP BY ALL',
    ]) {
      expect(await plan(sql), sql).toMatchObject({ narrowing: 'group', keys: [0] });
    }
  });

  it('takes an aggregate without GROUP BY as resting on every row it selects, and a plain SELECT row by row', async () => {
    expect(await plan("SELECT avg(price) FROM hotels WHERE city = 'Paris'")).toMatchObject({ narrowing: 'all', keys: [] });
    expect(await plan('SELECT count(*) > 0 FROM hotels')).toMatchObject({ narrowing: 'all', keys: [] });
    expect(await plan("SELECT name, 'x' AS tag, price FROM hotels ORDER BY price DESC LIMIT 1")).toMatchObject({ narrowing: 'row', keys: [0, 2] });
    expect(await plan('SELECT DISTINCT city FROM hotels')).toMatchObject({ narrowing: 'row', keys: [0] });
    expect(await plan('SELECT * FROM hotels WHERE price > 100')).toMatchObject({ narrowing: 'row', keys: [0, 1, 2, 3, 4, 5] });
  });

  it('says so when a row cannot be told apart, and refuses statements whose rows no single selection gives', async () => {
    expect(await plan('SELECT count(*) FROM hotels GROUP BY city')).toMatchObject({ narrowing: 'all', note: 'the result does not show everything the query groups by, so its rows are not told apart' });
    expect(await plan('SELECT city, count(*) FROM hotels GROUP BY ROLLUP (city)')).toMatchObject({ narrowing: 'all', note: expect.stringContaining('GROUPING SETS, ROLLUP or CUBE') });
    expect(await plan('SELECT name FROM hotels UNION SELECT room_type FROM hotels__rooms', [hotels, rooms])).toEqual({ untraceable: 'the query combines several queries (UNION, INTERSECT or EXCEPT)' });
    expect(await plan('WITH p AS (SELECT * FROM hotels) SELECT count(*) FROM p')).toEqual({ untraceable: 'the query reads from a WITH clause' });
    expect(await plan('SELECT count(*) FROM (SELECT * FROM hotels) s')).toEqual({ untraceable: 'the query reads from a subquery or a table function in FROM' });
    expect(await plan('SELECT count(*) FROM hotels NATURAL JOIN cities', [hotels, cities])).toMatchObject({ untraceable: expect.stringContaining('NATURAL') });
  });

  it('traces each table of a join with its document, an item\'s place in its list, and the attributes it holds', async () => {
    const result = await plan('SELECT h.city, count(*) FROM hotels h JOIN hotels__rooms r ON r._source = h._source JOIN cities c ON c.city = h.city GROUP BY h.city', tables);
    expect('columns' in result && result.columns.map((column) => `${column.name}:${column.role}`)).toEqual([
      'h._source:document', 'h.name:value', 'h.city:value', 'h.price:value', 'h.opened:value', 'h.manager:value',
      'r._source:document', 'r._position:position', 'r.room_type:value', 'r.sleeps:value',
      'c.city:value', 'c.population:value',
    ]);
  });
});

describe('the records the sandbox selects for a row', () => {
  it('selects a group\'s records, and every record an aggregate rests on when no row is named', async () => {
    const group = await traced('SELECT city, count(*) AS hotels FROM hotels GROUP BY city ORDER BY hotels DESC, city', 1, 'hotels._source');
    expect(group).toMatchObject({ narrowing: 'group', total: 2, values: ['c.md', 'd.md'] });
    const all = await traced("SELECT avg(price) FROM hotels WHERE city <> 'Lisbon'", undefined, 'hotels.name');
    expect(all).toMatchObject({ narrowing: 'all', total: 4, values: ['Amber', 'Birch', 'Cedar', 'Dune'] });
  });

  it('matches a row by its values as the result gave them: a DATE as text, a computed DOUBLE within rounding, a NULL', async () => {
    expect((await traced('SELECT opened, count(*) FROM hotels GROUP BY opened ORDER BY opened', 2, 'hotels.name')).values).toEqual(['Amber', 'Cedar']);
    expect((await traced('SELECT name, price * 1.1 FROM hotels WHERE price IS NOT NULL ORDER BY 2 DESC', 0, 'hotels.name')).values).toEqual(['Cedar']);
    expect((await traced('SELECT manager, count(*) FROM hotels GROUP BY manager ORDER BY manager NULLS FIRST', 0, 'hotels.name')).values).toEqual(['Birch', 'Dune']);
  });

  it('selects the joined records of a group with their items, and an imported table\'s rows beside them', async () => {
    const records = await traced("SELECT r.room_type, count(*) FROM hotels h JOIN hotels__rooms r ON r._source = h._source JOIN cities c ON c.city = h.city WHERE c.population > 1000000 GROUP BY 1 ORDER BY 1", 0, 'r._position', tables);
    expect(records.rows.map((row) => row.slice(0, 1).concat(row.slice(6, 8), row.slice(10)))).toEqual([
      ['a.md', 'a.md', 2, 'Paris', 2100000],
      ['c.md', 'c.md', 1, 'Rome', 2800000],
    ]);
    expect(records.values).toEqual([2, 1]);
  });

  it('pages through the records with their total, and runs the selection in the sandbox, over only the answer\'s tables', async () => {
    const page = await traceRecords(connection, await answer('SELECT count(*) FROM hotels'), { offset: 3, limit: 1 });
    expect(page).toMatchObject({ total: 5, rows: [[expect.stringMatching(/^d\.md$/), 'Dune', 'Rome', null, null, null]] });
    const past = await traceRecords(connection, await answer('SELECT count(*) FROM hotels'), { offset: 10, limit: 5 });
    expect(past).toMatchObject({ total: 5, rows: [] });
    // The answer's SQL reads a table the question was not asked of: the sandbox does not hold it.
    const smuggled = { ...(await answer('SELECT count(*) FROM hotels')), sql: 'SELECT count(*) FROM hotels WHERE city IN (SELECT city FROM cities)' };
    await expect(traceRecords(connection, smuggled, { limit: 5 })).rejects.toThrow(/cities/);
  });
});
