import type { ColumnOutlier } from './column-outlier.ts';

/**
 * What one column read by an answer's SQL rests on, counted from the evidence kept per document and
 * attribute. `rows = present + missing + dropped + unknown`.
 */
export interface ColumnCoverage {
  column: string;
  /** The rows counted: those the query's filters select, or every row of the table (see `over`). */
  rows: number;
  /** Values that reached the table with a quote that states them (conflicting ones included). */
  present: number;
  /** The document does not state the value. */
  missing: number;
  /** The model gave a value that was dropped: its quote does not state it (unsupported) or it is not of the column's type (invalid). */
  dropped: number;
  /**
   * Values whose footing is not known: checked against no quote (ingested with `--no-evidence`),
   * or rows without any evidence kept.
   */
  unknown: number;
  /** Of `present`: values on which parts of a long document disagree; the first part's value is kept. */
  conflicting: number;
  /**
   * `selected`: the rows the query's WHERE selects. `table`: every row, either because the column
   * is one the WHERE filters on (a row without the value cannot pass the filter, so what matters is
   * how many rows the filter could not judge) or because the selected rows could not be derived.
   */
  over: 'selected' | 'table';
  /** Why `over` is `table`: the column is `filtered` on, or the selection was `underivable`. */
  reason?: 'filtered' | 'underivable';
  /** One document whose value was dropped, for `srag why`; absent when none was. */
  droppedExample?: string;
  /**
   * Values the answer rests on that lie far from the rest of the column counted (see
   * `findColumnOutliers`), each with its document; absent when there are none.
   */
  outliers?: ColumnOutlier[];
}

/** True when some value behind the column is missing, dropped or of unknown footing. */
export function isIncomplete(coverage: ColumnCoverage): boolean {
  return coverage.missing + coverage.dropped + coverage.unknown + coverage.conflicting > 0;
}

/** True when the column should be spoken of: some value is incomplete, or one lies far from the rest. */
export function isWorthANote(coverage: ColumnCoverage): boolean {
  return isIncomplete(coverage) || (coverage.outliers?.length ?? 0) > 0;
}
