/**
 * A pair of columns in two tables whose values meet, measured on the data (the ARM paper's
 * table–table compatibility): `table.column` values found in `otherTable.otherColumn`.
 */
export interface TableLink {
  table: string;
  column: string;
  otherTable: string;
  otherColumn: string;
  /** Share of the distinct values of `table.column` that occur in `otherTable.otherColumn`, 0–1. */
  containment: number;
  /** Distinct values of `otherTable.otherColumn` over its non-null values, 0–1: 1 means it is a key. */
  otherUniqueness: number;
  /** Distinct values the two columns share (estimated from sketches for large columns). */
  sharedValues: number;
}

/** How good a join a link makes, 0–1: values that meet, towards a key. */
export function linkStrength(link: TableLink): number {
  return link.containment * (0.5 + 0.5 * link.otherUniqueness);
}
