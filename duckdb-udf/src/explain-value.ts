import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { SragError } from '../../core/index.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { sragCommandLine } from './quote-shell-argument.ts';
import type { SragStore } from './store/srag-store.ts';

/** Where one value came from: what `srag why` prints and `GET /why` returns. */
export interface ValueExplanation {
  table: string;
  /** The document as ingested (its canonical path). */
  source: string;
  attribute: string;
  /** The value as stored, as text; null when none was kept. */
  value: string | null;
  /** What the model returned, before normalization. */
  raw: string | null;
  quote: string | null;
  status: string;
  reason: string | null;
  /** Other documents that also match the `document` asked for (the first match is shown). */
  otherMatches: number;
}

/** Matches a document by its path, a path ending, or any unique part of it (a bare file name). */
const documentMatch = (column: string) => `(${column} = $2 OR ${column} LIKE '%/' || $2 OR ${column} LIKE '%' || $2 || '%')`;

/**
 * The value of `attribute` for `document`, its status and the quote it was read from — for a table
 * `srag ingest` made, and for one made from `srag_extract` (`CREATE TABLE t AS SELECT * FROM
 * srag_extract(…)`), whose rows are found in the evidence `srag_extract` kept by content hash.
 * `connection` reads (the store's own for the CLI, a reader of its own for the server); `database`
 * names the file in hints.
 */
export async function explainValue(store: SragStore, connection: DuckDBConnection, { document, attribute, table: tableName, database }: {
  document: string;
  attribute: string;
  table?: string;
  database: string;
}): Promise<ValueExplanation> {
  const extractTable = tableName && !(await store.tables()).includes(tableName) ? await extractTableColumns(connection, tableName) : undefined;
  let rows: DuckDBValue[][];
  let table: string;
  if (extractTable) {
    table = tableName!;
    if (!extractTable.includes(attribute)) {
      throw new SragError({ code: 'INPUT_INVALID', message: `table ${table} has no column "${attribute}"`, hint: `one of: ${extractTable.filter((column) => !['filename', 'content_hash', '_error'].includes(column)).join(', ')}` });
    }
    rows = (await connection.runAndReadAll(
      `SELECT t.filename, e.value, e.raw, e.quote, e.status, e.reason
       FROM ${quoteIdentifier(table)} t
       JOIN srag_ingestion_log l ON l.content_hash = t.content_hash AND l.table_name LIKE 'srag_extract:%' AND l.status = 'done'
       JOIN srag_evidence e ON e.table_name = l.table_name AND e.source = l.source AND e.attribute = $1
       WHERE ${documentMatch('t.filename')}
       ORDER BY (t.filename = $2) DESC, length(t.filename)`, [attribute, document])).getRows();
  } else {
    const info = await store.tableInfo(tableName);
    table = info.table;
    if (!info.schema.attributes.some((candidate) => candidate.name === attribute)) {
      throw new SragError({ code: 'INPUT_INVALID', message: `table ${info.table} has no attribute "${attribute}"`, hint: `one of: ${info.schema.attributes.map((candidate) => candidate.name).join(', ')}` });
    }
    rows = (await connection.runAndReadAll(
      `SELECT source, value, raw, quote, status, reason FROM srag_evidence
       WHERE table_name = $3 AND attribute = $1 AND ${documentMatch('source')}
       ORDER BY (source = $2) DESC, length(source)`, [attribute, document, info.table])).getRows();
  }
  if (rows.length === 0) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `no document matching "${document}" in ${table}`,
      hint: extractTable
        ? `pass a file name from ${sragCommandLine(['sql', '-c', `SELECT filename FROM ${quoteIdentifier(table)}`], database)}; rows from before srag_extract kept evidence have none`
        : `pass the path as ingested or a unique part of it, e.g. the file name (${sragCommandLine(['sql', '-c', `SELECT _source FROM ${quoteIdentifier(table)}`], database)} lists them)`,
    });
  }
  // One document may appear once per identical copy of its content; each is the same evidence.
  const documents = new Set(rows.map((row) => String(row[0])));
  const [source, value, raw, quote, status, reason] = rows[0]!;
  return {
    table,
    source: String(source),
    attribute,
    value: value === null ? null : String(value),
    raw: raw === null ? null : String(raw),
    quote: quote === null ? null : String(quote),
    status: String(status),
    reason: reason === null ? null : String(reason),
    otherMatches: documents.size - 1,
  };
}

/** The columns of `table` when it has the shape `srag_extract` returns (filename, content_hash, …); undefined otherwise. */
async function extractTableColumns(connection: DuckDBConnection, table: string): Promise<string[] | undefined> {
  const columns = (await connection.runAndReadAll("SELECT column_name FROM duckdb_columns() WHERE table_name = $1 AND schema_name = 'main'", [table])).getRows().map((row) => String(row[0]));
  return columns.includes('filename') && columns.includes('content_hash') ? columns : undefined;
}
