import { sqlFailure } from '../sql-failure.ts';
import type { TableReference } from '../syntax/sql-syntax.ts';
import { compareWithCoercion } from '../values/compare-sql-values.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import type { Relation } from './relation.ts';
import { toBoolean } from './three-valued-logic.ts';

/**
 * A nested-loop join: every pair of rows is tested (a step of work each), each row kept is charged
 * as memory, and unmatched rows of an outer side are padded with NULLs. `context` holds the outer
 * rows the ON condition may refer to.
 */
export function joinRelations(run: QueryRun, reference: Extract<TableReference, { type: 'join' }>, left: Relation, right: Relation, context: EvaluationContext): Relation {
  const usingNames = new Set(reference.using ?? []);
  const columns = [...left.columns, ...right.columns.map((column) => (usingNames.has(column.name) ? { ...column, hidden: true } : column))];
  const usingPairs = [...usingNames].map((name) => {
    const leftIndex = left.columns.findIndex((column) => column.name === name && !column.hidden);
    const rightIndex = right.columns.findIndex((column) => column.name === name && !column.hidden);
    if (leftIndex < 0 || rightIndex < 0) sqlFailure(`Binder Error: Column "${name}" does not exist on both sides of the JOIN`);
    return [leftIndex, rightIndex] as const;
  });
  // ON is evaluated over one reused pair row: a pair that does not match allocates nothing.
  const pair: RuntimeValue[] = new Array<RuntimeValue>(columns.length).fill(null);
  const pairContext: EvaluationContext = { ...context, columns, row: pair };
  const matches = (leftRow: RuntimeValue[], rightRow: RuntimeValue[]): boolean => {
    if (reference.kind === 'CROSS') return true;
    if (usingPairs.length) {
      return usingPairs.every(([leftIndex, rightIndex]) => compareWithCoercion(leftRow[leftIndex]!, left.columns[leftIndex]!.type, rightRow[rightIndex]!, right.columns[rightIndex]!.type) === 0);
    }
    for (let index = 0; index < leftRow.length; index += 1) pair[index] = leftRow[index]!;
    for (let index = 0; index < rightRow.length; index += 1) pair[leftRow.length + index] = rightRow[index]!;
    return toBoolean(run.evaluate(reference.on!, pairContext)) === true;
  };
  const leftNulls: RuntimeValue[] = left.columns.map(() => null);
  const rightNulls: RuntimeValue[] = right.columns.map(() => null);
  const rows: RuntimeValue[][] = [];
  const keep = (row: RuntimeValue[]) => {
    run.budget.rows(1, columns.length);
    rows.push(row);
  };
  const rightMatched = new Set<number>();
  for (const leftRow of left.rows) {
    let matched = false;
    right.rows.forEach((rightRow, index) => {
      run.budget.work(1);
      if (matches(leftRow, rightRow)) {
        matched = true;
        rightMatched.add(index);
        keep(leftRow.concat(rightRow));
      }
    });
    if (!matched && (reference.kind === 'LEFT' || reference.kind === 'FULL')) keep(leftRow.concat(rightNulls));
  }
  if (reference.kind === 'RIGHT' || reference.kind === 'FULL') {
    right.rows.forEach((rightRow, index) => {
      if (!rightMatched.has(index)) keep(leftNulls.concat(rightRow));
    });
  }
  return { columns, rows };
}
