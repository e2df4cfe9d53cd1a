import { sqlFailure } from '../sql-failure.ts';
import type { QueryBody } from '../syntax/sql-syntax.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { distinctRows, rowKey, type OutputRow, type ProducedRows } from './produced-rows.ts';
import type { QueryRun } from './query-run.ts';
import type { Relation } from './relation.ts';
import { runSelect } from './run-select.ts';

/**
 * A SELECT, or a set operation over two bodies: UNION ALL keeps every row, UNION, INTERSECT and
 * EXCEPT compare whole rows and keep each once (NULLs equal, as DuckDB's set operations treat them).
 */
export function runQueryBody(run: QueryRun, body: QueryBody, outer: EvaluationContext | undefined, ctes: Map<string, Relation>, level: number): ProducedRows {
  if (body.type === 'select') return runSelect(run, body, outer, ctes, level);
  const left = runQueryBody(run, body.left, outer, ctes, level);
  const right = runQueryBody(run, body.right, outer, ctes, level);
  if (left.columns.length !== right.columns.length) {
    sqlFailure(`Binder Error: Set operations can only apply to expressions with the same number of result columns (${left.columns.length} and ${right.columns.length})`);
  }
  let rows: OutputRow[];
  run.budget.rows(left.rows.length + right.rows.length, left.columns.length);
  if (body.operator === 'UNION ALL') {
    rows = [...left.rows, ...right.rows];
  } else if (body.operator === 'UNION') {
    rows = distinctRows([...left.rows, ...right.rows], run.budget);
  } else {
    const rightKeys = new Set(distinctRows(right.rows, run.budget).map(rowKey));
    rows = distinctRows(left.rows.filter((row) => rightKeys.has(rowKey(row)) === (body.operator === 'INTERSECT')), run.budget);
  }
  const columns = left.columns.map((column, index) => ({
    name: column.name,
    type: column.type === 'NULL' ? right.columns[index]!.type : column.type,
  }));
  return { columns, rows: rows.map((row) => ({ values: row.values })) };
}
