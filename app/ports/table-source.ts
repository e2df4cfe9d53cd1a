/** A column as the sandbox recreates it: its name and type, as the source table has them. */
export interface SandboxColumn {
  name: string;
  type: string;
}

/** A table as a source describes it for the sandbox. */
export interface SandboxTableDescription {
  /** Every column, in table order. */
  columns: SandboxColumn[];
  /** Columns the sandbox shows under a second name (`_source` for a `filename`). */
  aliases?: Array<{ name: string; of: string }>;
}

/**
 * Where a sandboxed engine takes a table from. Rows never pass through JavaScript: the source
 * has the database write the chosen columns to a Parquet file, which the sandbox reads.
 */
export interface TableSource {
  describeTable(table: string): Promise<SandboxTableDescription>;
  /** Writes `columns` of every row of `table`, in table order, to a new Parquet file at `file`. */
  exportTable(table: string, columns: string[], file: string): Promise<void>;
  /**
   * Writes the evidence kept for `attributes` of `table` (document, attribute, status) to a new
   * Parquet file at `file`, for coverage. Absent where no evidence is kept.
   */
  exportEvidence?(table: string, attributes: string[], file: string): Promise<void>;
}

/**
 * How a database writes what a sandbox reads: a table's columns, and the evidence kept under a
 * name (`RecordTable.evidence`). The session exports over a connection of its own; `srag_ask`
 * asks the thread blocked in DuckDB's callback, the only one that may query the database then.
 */
export interface TableExporter {
  exportTable(table: string, columns: string[], file: string): Promise<void>;
  /** Evidence (source, attribute, status) kept under `evidence.name`, keyed to the rows of `evidence.copyOf` when given. */
  exportEvidence(evidence: { name: string; copyOf?: string }, attributes: string[], file: string): Promise<void>;
}
