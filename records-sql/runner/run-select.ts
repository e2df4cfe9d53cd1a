import { sqlFailure } from '../sql-failure.ts';
import type { Expression, SelectCore } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { containsAggregate } from './contains-aggregate.ts';
import { evaluateFrom } from './evaluate-from.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { expandSelectItems } from './expand-select-items.ts';
import { groupRows } from './group-rows.ts';
import { distinctRows, type OutputRow, type ProducedRows } from './produced-rows.ts';
import type { QueryRun } from './query-run.ts';
import type { Relation, RelationColumn } from './relation.ts';
import { toBoolean } from './three-valued-logic.ts';

/** FROM, WHERE, then either grouping (GROUP BY, aggregates, HAVING) or one output row per row; DISTINCT last. */
export function runSelect(run: QueryRun, core: SelectCore, outer: EvaluationContext | undefined, ctes: Map<string, Relation>, level: number): ProducedRows {
  const source: Relation = core.from ? evaluateFrom(run, core.from, outer, ctes, level) : { columns: [], rows: [[]] };
  const aliases = new Map<string, Expression>();
  for (const item of core.items) if (item.type === 'expression' && item.alias) aliases.set(item.alias.toLowerCase(), item.expression);
  const contextFor = (row: RuntimeValue[]): EvaluationContext => ({ columns: source.columns, row, level, outer, aliases, ctes });

  let rows = source.rows;
  if (core.where) {
    const where = core.where;
    if (containsAggregate(where)) sqlFailure('Binder Error: WHERE clause cannot contain aggregates!');
    rows = rows.filter((row) => {
      run.budget.work(1);
      return toBoolean(run.evaluate(where, contextFor(row))) === true;
    });
  }

  const items = expandSelectItems(core, source.columns);
  const typeContext = contextFor(source.columns.map(() => null));
  const columns: RelationColumn[] = items.map((item) => ({ name: item.name, type: run.typeOf(item.expression, typeContext) }));
  const expressions = items.map((item) => item.expression);

  let output: OutputRow[];
  if (core.groupBy !== undefined || core.having !== undefined || expressions.some(containsAggregate)) {
    output = [];
    for (const context of groupRows(run, core, items, source.columns, rows, contextFor)) {
      if (core.having && toBoolean(run.evaluate(core.having, context)) !== true) continue;
      output.push({ values: expressions.map((expression) => run.evaluate(expression, context)), source: context });
    }
  } else {
    output = rows.map((row) => {
      const context = contextFor(row);
      return { values: expressions.map((expression) => run.evaluate(expression, context)), source: context };
    });
  }
  run.budget.rows(output.length, expressions.length);
  if (core.distinct) output = distinctRows(output, run.budget);
  return { columns, rows: output, expressions };
}
