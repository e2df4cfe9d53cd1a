import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ingestRowGroupRows, openDuckDbFile, rowGroupRows } from '../../node/duckdb/store/open-duckdb-file.ts';

const rows = async (connection: DuckDBConnection, sql: string) => (await connection.runAndReadAll(sql)).getRowsJS();

/** Block ids of the table's row group `group`, to tell a group kept as it was from one written again. */
const blocksOf = (connection: DuckDBConnection, table: string, group: number) =>
  rows(connection, `SELECT list(block_id ORDER BY column_id, segment_id) FROM pragma_storage_info('${table}') WHERE row_group_id = ${group} AND block_id >= 0`);

describe('a database file srag opens', () => {
  it('keeps its earlier row groups as they are when a checkpoint writes what was appended', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'srag-open-')), 'replies.duckdb');
    const { instance } = await openDuckDbFile(path);
    const connection = await instance.connect();
    try {
      // Replies of a few kB, as srag_cache holds them.
      await connection.run('CREATE TABLE cache (key VARCHAR PRIMARY KEY, response VARCHAR)');
      await connection.run(`INSERT INTO cache SELECT 'key ' || i, repeat('reply text ', 300) || i FROM range(${rowGroupRows + 100}) r(i)`);
      await connection.run('CHECKPOINT');
      const first = await blocksOf(connection, 'cache', 0);
      await connection.run(`INSERT INTO cache SELECT 'later ' || i, repeat('reply text ', 300) || i FROM range(50) r(i)`);
      await connection.run('CHECKPOINT');
      // With DuckDB's default (122,880 rows a group) the table is one group, read and written again whole.
      expect(await rows(connection, "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('cache')")).toEqual([[2n]]);
      expect(await blocksOf(connection, 'cache', 0)).toEqual(first);
      expect(await rows(connection, 'SELECT count(*) FROM cache')).toEqual([[BigInt(rowGroupRows + 150)]]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('puts ingestRowGroupRows rows in a row group when opened for srag ingest, rowGroupRows otherwise', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-open-'));
    const groups = async (forIngest: boolean) => {
      const { instance } = await openDuckDbFile(join(directory, `${forIngest ? 'ingest' : 'other'}.duckdb`), { forIngest });
      const connection = await instance.connect();
      try {
        await connection.run(`CREATE TABLE evidence AS SELECT i AS id, 'quote ' || i AS quote FROM range(${ingestRowGroupRows + 100}) r(i)`);
        await connection.run('CHECKPOINT');
        return Number((await rows(connection, "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('evidence')"))[0]![0]);
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    };
    expect(ingestRowGroupRows).toBeGreaterThan(rowGroupRows);
    expect(await groups(true)).toBe(Math.ceil((ingestRowGroupRows + 100) / ingestRowGroupRows));
    expect(await groups(false)).toBe(Math.ceil((ingestRowGroupRows + 100) / rowGroupRows));
  });

  it('is the database every connection of its instance starts in, under the name DuckDB gives the file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-open-'));
    const path = join(directory, 'hotels.v2.duckdb');
    const { instance } = await openDuckDbFile(path);
    const writer = await instance.connect();
    await writer.run('CREATE TABLE hotels AS SELECT 1 AS id');
    const reader = await instance.connect();
    try {
      expect(await rows(reader, 'SELECT current_database(), (SELECT count(*) FROM hotels)')).toEqual([['hotels', 1n]]);
    } finally {
      reader.closeSync();
      writer.closeSync();
      instance.closeSync();
    }
    // Kept in the file: a second open reads it.
    const again = await openDuckDbFile(path);
    const connection = await again.instance.connect();
    try {
      expect(await rows(connection, 'SELECT id FROM hotels')).toEqual([[1]]);
    } finally {
      connection.closeSync();
      again.instance.closeSync();
    }
  });

  it('opens a file whose name DuckDB keeps for a database of its own', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'srag-open-')), 'memory.duckdb');
    const { instance } = await openDuckDbFile(path);
    const connection = await instance.connect();
    try {
      await connection.run('CREATE TABLE t AS SELECT 1 AS id');
      expect(await rows(connection, "SELECT current_database(), (SELECT count(*) FROM duckdb_tables() WHERE table_name = 't' AND database_name = current_database())"))
        .toEqual([['srag_database', 1n]]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
