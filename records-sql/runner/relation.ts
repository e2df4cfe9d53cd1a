import type { SqlType } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';

export interface RelationColumn {
  name: string;
  /** The table or alias that qualifies the column (`h.city`); undefined for derived columns. */
  table?: string;
  type: SqlType;
  /** The right side's copy of a JOIN … USING column: reachable only when qualified. */
  hidden?: boolean;
}

/** A table while a query runs: typed columns and one array of values per row, in column order. */
export interface Relation {
  columns: RelationColumn[];
  rows: RuntimeValue[][];
}
