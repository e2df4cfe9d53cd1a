import { DuckDBInstance } from '@duckdb/node-api';

/** Rows of one query on a DuckDB file no command holds open any more (read-only, so nothing changes). */
export async function queryDatabaseFile(database: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(database, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      return (await connection.runAndReadAll(sql)).getRowsJS();
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
