import type { SelectStatement } from '../syntax/sql-syntax.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import type { Relation } from './relation.ts';
import { runQueryBody } from './run-query-body.ts';
import { sortRows } from './sort-rows.ts';

/** WITH (each CTE sees the ones before it), the body, ORDER BY, then OFFSET and LIMIT. */
export function runStatement(run: QueryRun, statement: SelectStatement, outer: EvaluationContext | undefined, ctes: Map<string, Relation>): Relation {
  const scope = new Map(ctes);
  for (const cte of statement.with) scope.set(cte.name, run.runStatement(cte.query, outer, scope));
  const level = (outer?.level ?? 0) + 1;
  const produced = runQueryBody(run, statement.body, outer, scope, level);
  let rows = produced.rows;
  if (statement.orderBy.length) rows = sortRows(run, rows, statement.orderBy, produced);
  const offset = statement.offset ?? 0;
  rows = rows.slice(offset, statement.limit === undefined ? undefined : offset + statement.limit);
  return { columns: produced.columns, rows: rows.map((row) => row.values) };
}
