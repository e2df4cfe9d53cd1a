import { LIST, listValue, VARCHAR } from '../duckdb-node-api.ts';
import type { DocumentReader } from '../../../core/index.ts';
import { friendlyPath } from '../../runtime/friendly-path.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { readDocumentFile } from '../../runtime/read-document-file.ts';
import type { SragStore } from './srag-store.ts';

/**
 * The hybrid path's documents for the tables `srag ingest` filled that a question reads: each is read again from the
 * canonical absolute path its row keeps in `_source` (PDF and Word through their parsers, as
 * ingestion read them), and the hash to compare with is the row's `_content_hash`, the hash of the
 * content the row was extracted from (the ingestion log's `done` entry). Only the selected sources
 * are looked up (a hash semi-join), so this holds at a million rows.
 */
export function storeDocumentReader(store: SragStore, tables: readonly string[]): DocumentReader {
  return {
    recordedHashes: async (sources) => tables.length === 0 ? new Map() : store.exclusive(async (connection) => {
      const rows = (await connection.runAndReadAll(
        tables.map((table) => `SELECT "_source", "_content_hash" FROM ${quoteIdentifier(table)} WHERE "_source" IN (SELECT unnest($1))`).join(' UNION ALL '),
        [listValue([...sources])],
        [LIST(VARCHAR)],
      )).getRowsJS();
      return new Map(rows.map((row) => [String(row[0]), String(row[1])]));
    }),
    read: (source) => readDocumentFile(source, { shownAs: friendlyPath(source), hint: 'restore the file, or run srag ingest again so the table matches the documents' }),
    label: (source) => friendlyPath(source),
  };
}
