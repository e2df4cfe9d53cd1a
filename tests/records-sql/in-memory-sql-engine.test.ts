import { describe, expect, it } from 'vitest';
import { checkGeneratedSql, SragError } from '../../core/index.ts';
import { InMemorySqlEngine, recordsSqlDialect } from '../../records-sql/index.ts';
import { findAggregateFunction } from '../../records-sql/functions/aggregate-functions.ts';
import { findScalarFunction } from '../../records-sql/functions/scalar-functions.ts';
import { readGoldRecordTable } from './helpers/gold-record-tables.ts';

const hotels = readGoldRecordTable('examples/hotels');
const worldcup = readGoldRecordTable('examples/worldcup');
const engine = new InMemorySqlEngine({ [hotels.table]: hotels.records, [worldcup.table]: worldcup.records });

describe('InMemorySqlEngine behind the SqlEngine port', () => {
  it.each([
    'DELETE FROM hotels', 'DROP TABLE hotels', "COPY hotels TO '/tmp/x.csv'", 'PRAGMA database_list', 'SELECT 1; SELECT 2',
    "SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM '/etc/passwd'", 'SELECT * FROM secrets', 'SELECT h.*, s.token FROM hotels h, other.secrets s',
  ])('refuses %s before anything runs', async (sql) => {
    const error = await checkGeneratedSql(engine, sql, ['hotels']).then(() => undefined, (caught: unknown) => caught);
    expect(SragError.isInstance(error) && error.code).toBe('SQL_REJECTED');
  });

  it('reads only the tables a query is handed, whatever the SQL names', async () => {
    await expect(engine.runReadOnlyQuery(`SELECT COUNT(*) FROM ${worldcup.table}`, ['hotels'])).rejects.toThrow(/does not exist/);
  });

  it('describes its own dialect to the text-to-SQL prompt, and every function the notes offer runs', () => {
    expect(engine.dialect).toBe(recordsSqlDialect);
    const listed = /Functions available: (.*)\./.exec(recordsSqlDialect)![1]!.replace(/\([^)]*\)/g, '').split(', ');
    const offered = listed.filter((name) => /^[a-z_]+$/.test(name));
    expect(offered.length).toBeGreaterThan(20);
    expect(offered.filter((name) => !findScalarFunction(name) && !findAggregateFunction(name))).toEqual([]);
  });
});
