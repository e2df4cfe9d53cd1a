import type { DuckDBConnection } from '@duckdb/node-api';
import type { RecordTable } from '../../../app/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';

/** A table as the server reads it: its name, and for one made from srag_extract the name its evidence is kept under. */
export interface ServedTable {
  table: string;
  /** Set for a table made from srag_extract: its rows find their log entries by content hash. */
  evidenceName?: string;
  /** The table whose ingestion log holds its documents: the parent of a child entity's table, else `table`. */
  logTable: string;
}

/** A table as `findExtractedDocument` reads it: a child entity's table keeps its documents in its parent's log. */
export function servedTable(table: RecordTable): ServedTable {
  return table.madeBy === 'srag_extract'
    ? { table: table.name, evidenceName: table.evidence!.name, logTable: table.evidence!.name }
    : { table: table.name, logTable: table.parent?.table ?? table.name };
}

/** A document extracted into a table: the file it was read from, and the hash of the text the model read. */
export interface ExtractedDocument {
  file: string;
  contentHash: string;
}

/**
 * The document `source` names in `table`, only when it was extracted into it: done in the
 * table's ingestion log and with a row in the table. A document that failed, that was logged but
 * never answered, or that the table does not know is undefined — the server shows nothing of it.
 * `source` is a row's `_source`, or its `filename` in a table made from srag_extract.
 */
export async function findExtractedDocument(connection: DuckDBConnection, served: ServedTable, source: string): Promise<ExtractedDocument | undefined> {
  const quoted = quoteIdentifier(served.table);
  const row = (served.evidenceName !== undefined
    ? await connection.runAndReadAll(
      `SELECT l.source, l.content_hash FROM ${quoted} t
       JOIN srag_ingestion_log l ON l.table_name = $1 AND l.content_hash = t.content_hash AND l.status = 'done'
       WHERE t.filename = $2 LIMIT 1`, [served.evidenceName, source])
    : await connection.runAndReadAll(
      `SELECT l.source, l.content_hash FROM srag_ingestion_log l
       WHERE l.table_name = $1 AND l.source = $2 AND l.status = 'done' AND EXISTS (SELECT 1 FROM ${quoted} t WHERE t."_source" = l.source)`,
      [served.logTable, source])).getRowsJS()[0];
  return row ? { file: String(row[0]), contentHash: String(row[1]) } : undefined;
}

/**
 * The condition (over the alias `t`) that keeps the rows of `served` whose documents were
 * extracted into it, as `findExtractedDocument` decides, with its one parameter (`$1`).
 */
export function extractedRowsFilter(served: ServedTable): { condition: string; parameter: string } {
  return served.evidenceName !== undefined
    ? { condition: `t.content_hash IN (SELECT content_hash FROM srag_ingestion_log WHERE table_name = $1 AND status = 'done')`, parameter: served.evidenceName }
    : { condition: `t."_source" IN (SELECT source FROM srag_ingestion_log WHERE table_name = $1 AND status = 'done')`, parameter: served.logTable };
}
