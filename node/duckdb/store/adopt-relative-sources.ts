import type { DocumentSource } from '../../../core/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import type { SragStore } from './srag-store.ts';

/** A `_source` an earlier srag stored: the path relative to the directory it ran in. */
export const relativeSourceSql = "source NOT LIKE '/%' AND NOT regexp_matches(source, '^[A-Za-z]:[\\\\/]')";

/**
 * Earlier versions stored a document's path relative to the working directory, so the same files
 * ingested from another directory became new rows. Rows whose relative path names, from this
 * directory, one of `documents` (same label) are moved to the document's canonical identity —
 * that much is unambiguous. Returns how many relative rows are left: they were ingested from
 * another directory and are converted when ingest runs there once.
 */
export async function adoptRelativeSources(store: SragStore, table: string, documents: readonly DocumentSource[]): Promise<number> {
  if (store.readOnly) return 0;
  return store.exclusive(async (connection) => {
    // Counted and matched in DuckDB: a table of a million rows must not cross into JavaScript here.
    const relativeCount = Number((await connection.runAndReadAll(`SELECT count(*) FROM srag_ingestion_log WHERE table_name = $1 AND ${relativeSourceSql}`, [table])).getRowsJS()[0]?.[0] ?? 0);
    if (relativeCount === 0) return 0;
    const byLabel = new Map(documents.map((document) => [document.label ?? document.source, document.source]));
    const matched = (await connection.runAndReadAll(
      `SELECT source FROM srag_ingestion_log WHERE table_name = $1 AND ${relativeSourceSql} AND source IN (SELECT unnest(from_json($2, '["VARCHAR"]')))`,
      [table, JSON.stringify([...byLabel.keys()])],
    )).getRowsJS().map((row) => String(row[0]));
    const moves = matched.map((old) => [old, byLabel.get(old)!] as const);
    if (moves.length > 0) {
      await connection.run('BEGIN TRANSACTION');
      try {
        for (const [old, identity] of moves) {
          // A row already under the new identity wins; the old one is dropped.
          for (const [target, column] of [[quoteIdentifier(table), '"_source"'], ['srag_evidence', 'source'], ['srag_ingestion_log', 'source']] as const) {
            const scope = target === quoteIdentifier(table) ? '' : ' AND table_name = $3';
            const parameters = target === quoteIdentifier(table) ? [old, identity] : [old, identity, table];
            await connection.run(`DELETE FROM ${target} WHERE ${column} = $1${scope} AND EXISTS (SELECT 1 FROM ${target} t WHERE t.${column} = $2${scope.replace('table_name', 't.table_name')})`, parameters);
            await connection.run(`UPDATE ${target} SET ${column} = $2 WHERE ${column} = $1${scope}`, parameters);
          }
        }
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
    return relativeCount - moves.length;
  });
}
