import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGeneratedSql, SragError } from '../../core/index.ts';
import { DuckDbSqlEngine } from '../../node/duckdb/duckdb-sql-engine.ts';
import { openSandbox } from '../../node/duckdb/sandbox/open-sandbox.ts';
import { sandboxLimits } from '../../node/duckdb/sandbox/sandbox-limits.ts';

let connection: DuckDBConnection;
let engine: DuckDbSqlEngine;
const secretFile = join(mkdtempSync(join(tmpdir(), 'srag-guard-')), 'secret.csv');

beforeAll(async () => {
  writeFileSync(secretFile, 'token\nsecret-value\n');
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(`CREATE TABLE hotels (hotel_name VARCHAR, stars BIGINT, "_source" VARCHAR);
    INSERT INTO hotels VALUES ('Lux', 4, 'a.html'), ('Ritz', 5, 'b.html');
    CREATE TABLE srag_cache (key VARCHAR, response VARCHAR); INSERT INTO srag_cache VALUES ('k', 'private');`);
  engine = new DuckDbSqlEngine(connection);
});

afterAll(() => connection.closeSync());

async function refusal(sql: string): Promise<SragError> {
  try {
    await checkGeneratedSql(engine, sql, ['hotels']);
    await engine.runReadOnlyQuery(sql, ['hotels']);
  } catch (error) {
    expect(SragError.isInstance(error)).toBe(true);
    return error as SragError;
  }
  throw new Error(`expected a refusal for: ${sql}`);
}

describe('the SQL guard for generated SQL', () => {
  it('runs one SELECT over the allowed table, with CTEs and subqueries', async () => {
    const sql = 'WITH top AS (SELECT * FROM hotels WHERE stars >= 4) SELECT count(*) AS n, max(stars) AS best FROM top WHERE hotel_name IN (SELECT hotel_name FROM hotels)';
    await checkGeneratedSql(engine, sql, ['hotels']);
    expect(await engine.runReadOnlyQuery(sql, ['hotels'])).toEqual({ columns: ['n', 'best'], rows: [[2, 5]] });
  });

  it.each([
    ['DELETE FROM hotels', 'SQL_REJECTED'],
    ['UPDATE hotels SET stars = 1', 'SQL_REJECTED'],
    ['INSERT INTO hotels VALUES (1, 2, 3)', 'SQL_REJECTED'],
    ['DROP TABLE hotels', 'SQL_REJECTED'],
    ['CREATE TABLE x AS SELECT * FROM hotels', 'SQL_REJECTED'],
    ["COPY hotels TO '/tmp/out.csv'", 'SQL_REJECTED'],
    ["ATTACH '/tmp/other.duckdb' AS other", 'SQL_REJECTED'],
    ['PRAGMA database_list', 'SQL_REJECTED'],
    ["SET enable_external_access = true", 'SQL_REJECTED'],
    ["INSTALL httpfs", 'SQL_REJECTED'],
    ['SELECT 1; SELECT 2', 'SQL_REJECTED'],
    ['SELECT * FROM hotels; DROP TABLE hotels', 'SQL_REJECTED'],
    ["SELECT * FROM read_text('/etc/passwd')", 'SQL_REJECTED'],
    [`SELECT * FROM read_csv('${secretFile}')`, 'SQL_REJECTED'],
    [`SELECT * FROM '${secretFile}'`, 'SQL_REJECTED'],
    ["SELECT * FROM read_parquet('https://example.com/x.parquet')", 'SQL_REJECTED'],
    ['SELECT * FROM srag_cache', 'SQL_REJECTED'],
    ['SELECT h.*, c.response FROM hotels h, srag_cache c', 'SQL_REJECTED'],
    ['SELECT * FROM duckdb_tables()', 'SQL_REJECTED'],
    ["SELECT getenv('HOME')", 'SQL_REJECTED'],
    ["SELECT current_setting('enable_external_access')", 'SQL_REJECTED'],
    ['SELEC * FROM hotels', 'SQL_FAILED'],
  ])('refuses %s', async (sql, code) => {
    expect((await refusal(sql)).code).toBe(code);
  });

  it('cannot read files even when the check is bypassed: the sandbox has external access off', async () => {
    const error = await engine.runReadOnlyQuery(`SELECT * FROM read_csv('${secretFile}')`, ['hotels']).catch((caught) => caught as SragError);
    expect(SragError.isInstance(error)).toBe(true);
    expect((error as SragError).message).toMatch(/disabled|Permission/i);
  });

  it('cannot see tables beyond the ones given, even when the check is bypassed', async () => {
    const error = await engine.runReadOnlyQuery('SELECT * FROM srag_cache', ['hotels']).catch((caught) => caught as SragError);
    expect((error as SragError).code).toBe('SQL_FAILED');
    expect((error as SragError).message).toMatch(/srag_cache does not exist/);
  });

  it('runs nothing but a SELECT, even when the check is bypassed', async () => {
    for (const sql of ['SET enable_external_access = true', 'SET threads = 1']) {
      const error = await engine.runReadOnlyQuery(sql, ['hotels']).catch((caught) => caught as SragError);
      expect(SragError.isInstance(error)).toBe(true);
      expect((error as SragError).code).toBe('SQL_REJECTED');
    }
  });

  it('locks the sandbox configuration, so a statement that slipped through cannot change any setting', async () => {
    const sandbox = await openSandbox([], sandboxLimits);
    try {
      for (const sql of ['SET enable_external_access = true', 'SET threads = 1', "SET temp_directory = '/tmp/x'", 'SET memory_limit = \'8GB\'']) {
        await expect(sandbox.connection.run(sql)).rejects.toThrow(/configuration has been locked/);
      }
    } finally {
      sandbox.close();
    }
  });

  it.each([
    ['a NUL byte, after which the parser and the terminal see nothing', 'SELECT count(*) FROM hotels\u0000; DROP TABLE hotels', 'U+0000'],
    ['an escape sequence that rewrites the terminal', 'SELECT 1 AS n\u001b[2K FROM hotels', 'U+001B'],
    ['a right-to-left override that reorders the text shown', 'SELECT 1 FROM hotels WHERE hotel_name = \'\u202Ezti R\'', 'U+202E'],
  ])('refuses generated SQL with %s', async (_, sql, codePoint) => {
    const error = await refusal(sql);
    expect(error.code).toBe('SQL_REJECTED');
    expect(error.message).toContain(codePoint);
  });

  it('accepts tabs and line breaks', async () => {
    await checkGeneratedSql(engine, 'SELECT count(*)\r\n\tFROM hotels', ['hotels']);
  });

  it.each([
    ['a real table beside a subquery whose CTE has its name', 'SELECT * FROM (WITH srag_cache AS (SELECT 1 AS x) SELECT * FROM srag_cache) AS inner_query, srag_cache'],
    ['a real table inside the non-recursive CTE that bears its name', 'WITH srag_cache AS (SELECT * FROM srag_cache) SELECT * FROM srag_cache'],
    ['a real table named by a CTE that is defined only later', 'WITH a AS (SELECT * FROM srag_cache), srag_cache AS (SELECT 1 AS x) SELECT * FROM a'],
    ['a real table in a UNION beside a CTE of a sibling scope', 'SELECT * FROM (WITH srag_cache AS (SELECT 1 AS x) SELECT x FROM srag_cache) UNION ALL SELECT count(*) FROM srag_cache'],
  ])('sees through CTE scopes: refuses %s', async (_, sql) => {
    const error = await refusal(sql);
    expect(error.code).toBe('SQL_REJECTED');
    expect(error.message).toContain('"srag_cache"');
  });

  it('lets a CTE shadow a table within its own scope, recursive ones included', async () => {
    for (const sql of [
      'WITH srag_cache AS (SELECT * FROM hotels) SELECT count(*) AS n FROM srag_cache',
      'WITH top AS (SELECT * FROM hotels), srag_cache AS (SELECT * FROM top) SELECT count(*) AS n FROM srag_cache',
      'WITH RECURSIVE srag_cache(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM srag_cache WHERE n < 2) SELECT count(*) AS n FROM srag_cache',
      'SELECT (WITH srag_cache AS (SELECT stars FROM hotels) SELECT count(*) FROM srag_cache) AS n',
    ]) {
      await checkGeneratedSql(engine, sql, ['hotels']);
      expect((await engine.runReadOnlyQuery(sql, ['hotels'])).rows).toEqual([[2]]);
    }
  });
});
