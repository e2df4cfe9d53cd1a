import type { ColumnCoverage } from '../coverage/column-coverage.ts';

/**
 * The coverage port: how complete the values behind an answer are. An engine that can see what
 * each value of a record table rests on (the DuckDB store's `srag_evidence`, the Sheets Records
 * range's `_error` column) implements it; core words the counts (`describeCoverage`) and hands
 * them to the answer prompt.
 */
export interface CoverageSource {
  /**
   * For each attribute in `attributes` that the already-checked SELECT `sql` reads from `table`,
   * what the evidence says of its values: over the rows the statement's WHERE selects when those
   * can be derived, else over every row of the table (`over` says which). Attributes the
   * statement does not read are left out; a statement that reads every column (`*`) reads them all.
   */
  countCoverage(sql: string, table: string, attributes: readonly string[]): Promise<ColumnCoverage[]>;
}
