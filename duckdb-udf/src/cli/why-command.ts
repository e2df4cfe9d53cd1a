import type { DuckDBValue } from '@duckdb/node-api';
import { countNoun, SragError } from '../../../core/index.ts';
import { quotePageNote } from '../documents/quote-page-note.ts';
import { friendlyPath } from '../friendly-path.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { SragStore } from '../store/srag-store.ts';

/** Matches a document by its path, a path ending, or any unique part of it (a bare file name). */
const documentMatch = (column: string) => `(${column} = $2 OR ${column} LIKE '%/' || $2 OR ${column} LIKE '%' || $2 || '%')`;

/**
 * `srag why <document> <attribute>`: the value, its status and the quote it was read from — for a
 * table `srag ingest` made, and for one made from `srag_extract` (`CREATE TABLE t AS SELECT * FROM
 * srag_extract(…)`), whose rows are found in the evidence `srag_extract` kept by content hash.
 */
export async function whyCommand(document: string, attribute: string, options: { db: string; table?: string }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const extractTable = options.table && !(await store.tables()).includes(options.table) ? await extractTableColumns(store, options.table) : undefined;
    let rows: DuckDBValue[][];
    let table: string;
    if (extractTable) {
      table = options.table!;
      if (!extractTable.includes(attribute)) {
        throw new SragError({ code: 'INPUT_INVALID', message: `table ${table} has no column "${attribute}"`, hint: `one of: ${extractTable.filter((column) => !['filename', 'content_hash', '_error'].includes(column)).join(', ')}` });
      }
      rows = (await store.connection.runAndReadAll(
        `SELECT t.filename, e.value, e.raw, e.quote, e.status, e.reason
         FROM ${quoteIdentifier(table)} t
         JOIN srag_ingestion_log l ON l.content_hash = t.content_hash AND l.table_name LIKE 'srag_extract:%' AND l.status = 'done'
         JOIN srag_evidence e ON e.table_name = l.table_name AND e.source = l.source AND e.attribute = $1
         WHERE ${documentMatch('t.filename')}
         ORDER BY (t.filename = $2) DESC, length(t.filename)`, [attribute, document])).getRows();
    } else {
      const info = await store.tableInfo(options.table);
      table = info.table;
      if (!info.schema.attributes.some((candidate) => candidate.name === attribute)) {
        throw new SragError({ code: 'INPUT_INVALID', message: `table ${info.table} has no attribute "${attribute}"`, hint: `one of: ${info.schema.attributes.map((candidate) => candidate.name).join(', ')}` });
      }
      rows = (await store.connection.runAndReadAll(
        `SELECT source, value, raw, quote, status, reason FROM srag_evidence
         WHERE table_name = $3 AND attribute = $1 AND ${documentMatch('source')}
         ORDER BY (source = $2) DESC, length(source)`, [attribute, document, info.table])).getRows();
    }
    // One document may appear once per identical copy of its content; each is the same evidence.
    const documents = new Set(rows.map((row) => String(row[0])));
    if (rows.length === 0) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `no document matching "${document}" in ${table}`,
        hint: extractTable
          ? `pass a file name from ${sragCommandLine(['sql', '-c', `SELECT filename FROM ${quoteIdentifier(table)}`], options.db)}; rows from before srag_extract kept evidence have none`
          : `pass the path as ingested or a unique part of it, e.g. the file name (${sragCommandLine(['sql', '-c', `SELECT _source FROM ${quoteIdentifier(table)}`], options.db)} lists them)`,
      });
    }
    const [source, value, raw, quote, status, reason] = rows[0]!;
    process.stdout.write([
      `${friendlyPath(String(source))} · ${attribute} = ${value ?? 'NULL'} (${String(status)})`,
      raw !== null ? `model returned: ${String(raw)}` : undefined,
      quote !== null ? `quote: “${String(quote)}”${await quotePageNote(String(source), String(quote))}` : status === 'unchecked' ? 'quote: none (ingested with --no-evidence)' : 'quote: none',
      reason !== null ? `reason: ${String(reason)}` : undefined,
      documents.size > 1 ? `(${countNoun(documents.size - 1, 'other document')} also ${documents.size === 2 ? 'matches' : 'match'} "${document}")` : undefined,
      '',
    ].filter((line) => line !== undefined).join('\n'));
    return 0;
  } finally {
    store.close();
  }
}

/** The columns of `table` when it has the shape `srag_extract` returns (filename, content_hash, …); undefined otherwise. */
async function extractTableColumns(store: SragStore, table: string): Promise<string[] | undefined> {
  const columns = (await store.connection.runAndReadAll("SELECT column_name FROM duckdb_columns() WHERE table_name = $1 AND schema_name = 'main'", [table])).getRows().map((row) => String(row[0]));
  return columns.includes('filename') && columns.includes('content_hash') ? columns : undefined;
}
