import type { DuckDBConnection } from '@duckdb/node-api';
import { readTableSnapshot, type TableLinkRow, type TableSnapshot } from '../../../app/index.ts';
import { questionPhrases } from '../../../core/index.ts';
import { LIST, listValue, VARCHAR } from '../duckdb-node-api.ts';
import { tableSnapshotSql } from './table-snapshot-sql.ts';

const snapshotTables = ['srag_tables', 'srag_extract_schemas', 'srag_imports', 'srag_table_links', 'srag_column_values'];

/**
 * The snapshot a question over the database behind `connection` needs (see `tableSnapshotSql`), in
 * one statement; the links between columns are read afterwards for the candidates alone (`readTableLinks`).
 */
export async function readTableSnapshotOver(connection: DuckDBConnection, question: string, table: string | undefined): Promise<TableSnapshot> {
  const present = new Set((await connection.runAndReadAll(
    `SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name IN (${snapshotTables.map((name) => `'${name}'`).join(', ')})`,
  )).getRowsJS().map((row) => String(row[0])));
  const missing = new Set(snapshotTables.filter((name) => !present.has(name)));
  const texts = (await connection.runAndReadAll(
    `SELECT ${tableSnapshotSql('$1::VARCHAR', '$2::VARCHAR[]', missing, { links: false }).join(', ')}`,
    [table ?? null, listValue(table === undefined ? questionPhrases(question) : [])],
    [VARCHAR, LIST(VARCHAR)],
  )).getRowsJS()[0]!.map((value) => (value === null ? null : String(value)));
  return readTableSnapshot(texts);
}

/** The links between columns with at least one side in `tables`, as `srag_table_links` keeps them. */
export async function readTableLinks(connection: DuckDBConnection, tables: readonly string[]): Promise<TableLinkRow[]> {
  if (tables.length === 0) return [];
  const present = (await connection.runAndReadAll(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'srag_table_links'",
  )).getRowsJS().length > 0;
  if (!present) return [];
  return (await connection.runAndReadAll(
    `SELECT table_name, column_name, other_table, other_column, containment, other_uniqueness, shared_values FROM srag_table_links
     WHERE list_contains($1::VARCHAR[], table_name) OR list_contains($1::VARCHAR[], other_table)`,
    [listValue([...tables])], [LIST(VARCHAR)],
  )).getRowObjectsJson() as unknown as TableLinkRow[];
}
