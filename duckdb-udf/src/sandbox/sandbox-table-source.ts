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

/** A column as the sandbox recreates it: its name and DuckDB type, as the source table has them. */
export interface SandboxColumn {
  name: string;
  type: string;
}

/** A table as a source describes it for the sandbox. */
export interface SandboxTableDescription {
  /** Every column, in table order. */
  columns: SandboxColumn[];
  /**
   * Columns the sandbox shows under a second name: a table made by `srag_extract` calls its
   * provenance column `filename`, and the text-to-SQL prompt calls it `_source`.
   */
  aliases?: Array<{ name: string; of: string }>;
}

/**
 * Where the sandbox takes a table from. Rows never pass through JavaScript: the source has DuckDB
 * write the chosen columns to a Parquet file, which the sandbox reads. `srag ask` exports over its
 * own connection (`connectionTableSource`); `srag_ask` asks the thread that owns the database,
 * which is blocked in the DuckDB callback and runs the export there (see `srag-ask.ts`).
 */
export interface SandboxTableSource {
  describeTable(table: string): Promise<SandboxTableDescription>;
  /** Writes `columns` of every row of `table`, in table order, to a new Parquet file at `file`. */
  exportTable(table: string, columns: string[], file: string): Promise<void>;
  /**
   * Writes the evidence kept for `attributes` of `table` (document, attribute, status; see
   * `srag_evidence`) to a new Parquet file at `file`, for coverage. Absent where no evidence is kept.
   */
  exportEvidence?(table: string, attributes: string[], file: string): Promise<void>;
}
