import type { QueryBudget } from '../query-budget.ts';
import type { Expression } from '../syntax/sql-syntax.ts';
import { groupingKey } from '../values/compare-sql-values.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { RelationColumn } from './relation.ts';

/** One row a SELECT produced, with the context it came from so ORDER BY can evaluate more. */
export interface OutputRow {
  values: RuntimeValue[];
  source?: EvaluationContext;
}

/** The rows of a query body before ORDER BY and LIMIT. */
export interface ProducedRows {
  columns: RelationColumn[];
  rows: OutputRow[];
  /** The select items' expressions, so ORDER BY can refer to them; absent for set operations. */
  expressions?: Expression[];
}

/** A key under which DISTINCT and set operations treat two rows as one (NULLs equal). */
export function rowKey(row: OutputRow): string {
  return row.values.map(groupingKey).join('\u0001');
}

/** The rows without repeats (the first of each kept); each key kept is charged to `budget`. */
export function distinctRows(rows: OutputRow[], budget: QueryBudget): OutputRow[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = rowKey(row);
    budget.work(1);
    if (seen.has(key)) return false;
    budget.keptText(key.length);
    seen.add(key);
    return true;
  });
}
