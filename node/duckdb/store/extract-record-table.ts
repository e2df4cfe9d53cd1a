import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../quote-identifier.ts';

/** The DuckDB schema that holds the record tables `srag_extract` fills, apart from the user's tables. */
export const extractSchemaName = 'srag_extract';

/**
 * The record table behind a schema `srag_extract` was called with: `srag_extract:<title>:<hash>`
 * keeps its rows in `srag_extract."<title>_<hash>"`. `srag_extract` returns a document's row from it
 * when the document is unchanged; its evidence and log rows carry the key as `table_name`.
 */
export async function extractRecordTable(connection: DuckDBConnection, schemaKey: string): Promise<{ quotedTable: string; exists: boolean }> {
  const name = extractRecordTableName(schemaKey);
  const exists = (await connection.runAndReadAll('SELECT 1 FROM duckdb_tables() WHERE schema_name = $1 AND table_name = $2', [extractSchemaName, name])).getRowsJS().length > 0;
  return { quotedTable: `${quoteIdentifier(extractSchemaName)}.${quoteIdentifier(name)}`, exists };
}

export function extractRecordTableName(schemaKey: string): string {
  return schemaKey.replace(/^srag_extract:/, '').replace(/:/g, '_');
}
