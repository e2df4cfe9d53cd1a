/**
 * The SQL-engine port: what core needs from a database to answer a question.
 *
 * `runReadOnlyQuery` must execute where the query cannot read files, reach the network or see any
 * table other than the ones named in `tables` (S-RAG paper §3.3 runs LLM-written SQL; we treat it as
 * untrusted). `parseSelect` must use the engine's own parser, not a keyword match.
 */
export type SqlValue = string | number | boolean | null;

export interface SqlResult {
  columns: string[];
  rows: SqlValue[][];
  /** Set when the engine kept the result bounded by leaving something out; absent when nothing was cut. */
  cut?: ResultCut;
}

/**
 * What an engine left out of a result. A generated query can produce millions of rows or a
 * 300 MB string; an engine returns at most `maximumRows` rows and `maximumCellCharacters`
 * characters per cell, and says so here, so that every consumer can tell the user what was cut.
 */
export interface ResultCut {
  /** The query produced more rows than `rows` holds (how many more is not known). */
  rowsOmitted: boolean;
  /** Cells whose text was cut to `maximumCellCharacters` characters; each ends in "…". */
  cellsShortened: number;
  maximumRows: number;
  maximumCellCharacters: number;
}

export interface ParsedSelect {
  /** Base tables the statement reads, lower-cased, without CTE names. */
  tables: string[];
  /** Table functions the statement calls (read_csv, read_text, ...), lower-cased. */
  tableFunctions: string[];
  /** Scalar and aggregate function names the statement calls, lower-cased. */
  functions: string[];
}

export interface SqlEngine {
  /**
   * The dialect notes the text-to-SQL prompt carries (its `{{dialect_notes}}`): the SQL this
   * engine runs, described for the model, e.g. "DuckDB dialect notes: - Write exactly one SELECT
   * …". Core names no engine; each engine describes itself.
   */
  readonly dialect: string;
  /**
   * Parse `sql` with the engine's parser. Throws `SqlRejectedError` unless it is exactly one
   * SELECT statement.
   */
  parseSelect(sql: string): Promise<ParsedSelect>;
  /** Run an already-checked SELECT in a sandbox that holds only `tables`. */
  runReadOnlyQuery(sql: string, tables: string[]): Promise<SqlResult>;
}
