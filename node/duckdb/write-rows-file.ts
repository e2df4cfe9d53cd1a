import type { DuckDBConnection, DuckDBInstance as Instance } from '@duckdb/node-api';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uniqueColumnNames } from '../../app/index.ts';
import type { SqlValue } from '../../core/index.ts';
import { DuckDBInstance } from './duckdb-node-api.ts';
import { sqlString } from '../runtime/sql-string.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { createPrivateDirectory } from './sandbox/private-directory.ts';

/** The files a result can be downloaded as. */
export type RowsFileFormat = 'csv' | 'parquet';

/** An in-memory DuckDB of its own, with few threads and little memory: it only turns rows into a file. */
let writer: Promise<Instance> | undefined;

/**
 * `rows` (as a result gives them: numbers, text, booleans, null) as a CSV file with a header, or a
 * Parquet file, written by DuckDB. The column types are DuckDB's reading of the values (`read_json`
 * over all of them): whole numbers BIGINT, others DOUBLE, 'YYYY-MM-DD' a DATE, true/false BOOLEAN,
 * a column of nulls VARCHAR. Column names are made unique as `srag_ask`'s are. The rows pass
 * through a private temporary directory, removed before this returns.
 */
export async function writeRowsFile(result: { columns: readonly string[]; rows: readonly SqlValue[][] }, format: RowsFileFormat): Promise<Uint8Array> {
  writer ??= DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '256MB' });
  const connection = await (await writer).connect();
  const directory = createPrivateDirectory('download');
  try {
    const names = uniqueColumnNames([...result.columns]);
    const input = join(directory.path, 'rows.ndjson');
    const output = join(directory.path, `rows.${format}`);
    writeFileSync(input, result.rows.map((row) => JSON.stringify(Object.fromEntries(names.map((_, index) => [`c${index}`, row[index] ?? null])))).join('\n'));
    const selected = await selectedColumns(connection, input, names);
    const source = result.rows.length ? readRows(input) : '(SELECT 1) AS srag_empty WHERE false';
    const options = format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT parquet';
    await connection.run(`COPY (SELECT ${selected} FROM ${source}) TO ${sqlString(output)} (${options})`);
    return readFileSync(output);
  } finally {
    connection.closeSync();
    directory.remove();
  }
}

/** The rows file as DuckDB reads it, every row sampled for the types. */
function readRows(input: string): string {
  return `read_json(${sqlString(input)}, format = 'newline_delimited', sample_size = -1)`;
}

/** Each column under its name, of the type DuckDB reads its values as (a column without values is VARCHAR). */
async function selectedColumns(connection: DuckDBConnection, input: string, names: string[]): Promise<string> {
  const types = new Map<string, string>();
  if (names.length && readFileSync(input).length > 0) {
    const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${readRows(input)}`);
    for (const [column, type] of described.getRowsJS()) types.set(String(column), String(type));
  }
  return names.map((name, index) => {
    const type = types.get(`c${index}`);
    const value = type === undefined ? 'NULL' : `c${index}`;
    return `CAST(${value} AS ${type === undefined || type === 'JSON' ? 'VARCHAR' : type}) AS ${quoteIdentifier(name)}`;
  }).join(', ') || '1 AS "empty"';
}
