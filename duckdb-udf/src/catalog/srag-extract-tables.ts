import type { DuckDBConnection } from '@duckdb/node-api';
import { SragError } from '../../../core/index.ts';
import { askCandidates, type AskTable } from '../llm-bridge/resolve-ask-table.ts';
import { internalTableNames } from '../store/internal-table-names.ts';

/**
 * The tables made from `srag_extract`'s rows (`CREATE TABLE hotels AS SELECT * FROM
 * srag_extract(…)`), known as `srag_ask(question)` knows them (`askCandidates`): a `filename`
 * column, and the schema `srag_extract` recorded that shares the most attribute names with the
 * table, cut down to the attributes it kept. For the commands that read a table's schema outside
 * SQL (`srag why`, `srag stats`, and the server's `/why` and `/stats`). Tables `srag ingest` or
 * `srag import` made (`ingested`) are left out: their schemas are the store's.
 */
export async function sragExtractTables(connection: DuckDBConnection, ingested: readonly string[]): Promise<AskTable[]> {
  const recorded = (await connection.runAndReadAll(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'srag_extract_schemas'",
  )).getRowsJS().length > 0;
  if (!recorded) return [];
  const knownSchemas = (await connection.runAndReadAll('SELECT schema_key, schema_json FROM srag_extract_schemas ORDER BY schema_key')).getRowsJS()
    .map((row) => ({ name: String(row[0]), schemaJson: String(row[1]), statisticsJson: null, origin: 'srag_extract' as const }));
  if (knownSchemas.length === 0) return [];
  const leftOut = new Set([...internalTableNames, ...ingested].map((name) => name.toLowerCase()));
  const columns = (await connection.runAndReadAll(
    `SELECT table_name, column_name, data_type FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
     ORDER BY table_name, column_index`,
  )).getRowsJS();
  const tables = new Map<string, Array<{ name: string; type: string }>>();
  for (const [table, column, type] of columns) {
    if (leftOut.has(String(table).toLowerCase())) continue;
    const list = tables.get(String(table)) ?? [];
    list.push({ name: String(column), type: String(type) });
    tables.set(String(table), list);
  }
  return askCandidates({
    question: '',
    table: null,
    tables: [...tables].map(([name, tableColumns]) => ({ name, columns: tableColumns })),
    knownSchemas,
    catalog: { imports: [], links: [], mentions: [] },
    extend: false,
  });
}

/** Whether a table made from `srag_extract` kept `content_hash`, by which its rows find their documents' evidence and files. */
export function keptContentHash(table: AskTable): boolean {
  return table.columns.some((column) => column.name === 'content_hash');
}

/** What a table made from `srag_extract` without its `content_hash` column cannot give: a row's evidence or file. */
export function contentHashMissing(table: string): SragError {
  return new SragError({
    code: 'INPUT_INVALID',
    message: `table ${table} has no content_hash column, by which a row of a table made from srag_extract finds its document's evidence`,
    hint: 'keep it when you make the table: CREATE TABLE … AS SELECT * FROM srag_extract(…), or name content_hash among the columns',
  });
}

/** A table named that is neither one `srag ingest` or `srag import` made (`ingested`) nor one made from `srag_extract` (`made`). */
export function noSuchRecordTable(database: string, table: string, ingested: readonly string[], made: readonly AskTable[]): SragError {
  const names = [...ingested, ...made.map((candidate) => candidate.name)];
  return new SragError({ code: 'TABLE_NOT_FOUND', message: `no table "${table}" in ${database} made by srag ingest, srag import or srag_extract`, hint: `pass --table with one of: ${names.join(', ')}` });
}

/**
 * The table made from `srag_extract` (`sragExtractTables`) that `table` names, or, when none is
 * named and `srag ingest` or `srag import` made no table (`ingested`), the only one; undefined to
 * go on with the store's tables (`SragStore.tableInfo`).
 * A name that is neither kind's is an error that lists both kinds.
 */
export async function extractMadeTable(ingested: readonly string[], connection: DuckDBConnection, database: string, table: string | undefined): Promise<AskTable | undefined> {
  if (table !== undefined && ingested.includes(table)) return undefined;
  if (table === undefined && ingested.length > 0) return undefined;
  const made = await sragExtractTables(connection, ingested);
  if (table !== undefined) {
    const found = made.find((candidate) => candidate.name === table);
    if (found || made.length === 0) return found;
    throw noSuchRecordTable(database, table, ingested, made);
  }
  if (made.length > 1) {
    throw new SragError({
      code: 'TABLE_NOT_FOUND',
      message: `${database} holds several tables made from srag_extract (${made.map((candidate) => candidate.name).join(', ')})`,
      hint: `pass --table with one of: ${made.map((candidate) => candidate.name).join(', ')}`,
    });
  }
  return made[0];
}
