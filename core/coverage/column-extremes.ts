/** One value of a column and the document its row came from. */
export interface ValueOfDocument {
  value: number;
  document: string;
}

/**
 * The ends of a numeric column over the rows an answer rests on, as an engine counts them in one
 * pass (`max_by(…, 3)` in DuckDB): what `findColumnOutliers` decides from, with no row in memory.
 */
export interface ColumnExtremes {
  /** How many of the rows hold a value. */
  count: number;
  /** The largest values, largest first (three, or all when fewer). */
  highest: readonly ValueOfDocument[];
  /** The smallest values, smallest first. */
  lowest: readonly ValueOfDocument[];
}
