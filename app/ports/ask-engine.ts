import type { ColumnStatistics, CoverageSource, RecordSchema, SqlEngine } from '../../core/index.ts';

/**
 * The sandboxed SQL engine a question runs in (the DuckDB adapter's `DuckDbSqlEngine`): the
 * generated SQL, the coverage behind its columns, and the statistics of a table that keeps none.
 */
export interface AskEngine extends SqlEngine, CoverageSource {
  /** The Appendix-D statistics of `table`, computed from its rows in the sandbox. */
  computeStatistics(table: string, schema: RecordSchema): Promise<ColumnStatistics[]>;
}
