/**
 * How a source writes a table for the sandbox: Parquet, uncompressed — the file lives for one query
 * in a temporary directory, and compressing it would only spend CPU on both sides.
 */
export const sandboxExportOptions = 'FORMAT parquet, COMPRESSION uncompressed';

/** The evidence `exportEvidence` writes: `$1` the table's name in `srag_evidence`, `$2` the attributes (VARCHAR[]). */
export const evidenceExportSql = 'SELECT source, attribute, status FROM srag_evidence WHERE table_name = $1::VARCHAR AND list_contains($2::VARCHAR[], attribute)';

/**
 * The same evidence keyed to the rows of a copy (`$4`, a table made with `CREATE TABLE … AS SELECT *
 * FROM srag_extract(…)`), whose `filename` shows each document as the statement named it, not by
 * its identity: a row finds its document's evidence through its `content_hash` in the log, as long
 * as the document was not extracted again since. Documents with the same text are one
 * document here; where their evidence disagrees (or a name has rows of two versions), the status is
 * NULL, which coverage counts as unknown rather than pick one.
 */
export const copyEvidenceExportSql = `SELECT t.filename AS source, e.attribute, CASE WHEN min(e.status) = max(e.status) THEN min(e.status) END AS status
  FROM (SELECT DISTINCT filename, content_hash FROM query_table($4::VARCHAR)) t
  JOIN srag_ingestion_log l ON l.table_name = $1::VARCHAR AND l.content_hash = t.content_hash
  JOIN srag_evidence e ON e.table_name = $1::VARCHAR AND e.source = l.source AND list_contains($2::VARCHAR[], e.attribute)
  GROUP BY t.filename, e.attribute`;

/** The table source's types are app's ports (`TableSource`); the names the sandbox's files use. */
export type { SandboxColumn, SandboxTableDescription, TableSource as SandboxTableSource } from '../../../app/index.ts';
