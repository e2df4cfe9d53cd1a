import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { addedColumns, storeTablesSql } from '../../node/duckdb/store/store-tables.ts';

/**
 * The columns of srag_ingestion_log and srag_cache in order: the tables whose added columns a new
 * file is made with, last (srag_extractors' `definition` stands mid-table in a new file, as it has
 * since it was added; an upgraded file has it last, which no statement minds: none reads by position).
 */
const upgradedTables = ['srag_cache', 'srag_ingestion_log'];

async function columnsOf(path: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    const tables = `[${upgradedTables.join(', ')}]`;
    return (await connection.runAndReadAll(
      'SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = $1 AND table_name IN (SELECT unnest($2::VARCHAR[])) ORDER BY table_name, column_index',
      ['main', tables],
    )).getRowsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('the bookkeeping tables of a new file and of an upgraded one', () => {
  it('are the same, column for column and in the same order: a new file is made with the columns an older one is given', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-upgrade-'));
    const older = join(directory, 'older.duckdb');
    const instance = await DuckDBInstance.create(older);
    const connection = await instance.connect();
    await connection.run(storeTablesSql);
    // The file as the first version left it: none of the columns added since.
    for (const { table, column } of [...addedColumns].reverse()) await connection.run(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    await connection.run('CHECKPOINT');
    connection.closeSync();
    instance.closeSync();

    const created = join(directory, 'new.duckdb');
    for (const path of [older, created]) (await SragStore.open(path)).close();

    const upgraded = await columnsOf(older);
    expect(upgraded.map(([table, column]) => `${table}.${column}`)).toEqual(expect.arrayContaining(
      addedColumns.filter(({ table }) => upgradedTables.includes(table)).map(({ table, column }) => `${table}.${column}`)));
    expect(await columnsOf(created)).toEqual(upgraded);
  });
});
