import { sqlFailure } from '../sql-failure.ts';
import type { Expression, SqlType } from '../syntax/sql-syntax.ts';
import { compareWithCoercion } from '../values/compare-sql-values.ts';
import { convertCase } from '../unicode/convert-case.ts';
import { formatSqlValue } from '../values/format-sql-value.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import { and, not, toBoolean } from './three-valued-logic.ts';

type Candidate = { value: RuntimeValue; type: SqlType };

/** An IN list of literals is evaluated once, not once per row; each item is still a step per row. */
const constantCandidates = new WeakMap<Expression[], Candidate[]>();

export type Predicate = Extract<Expression, { type: 'isNull' | 'isBoolean' | 'isDistinctFrom' | 'between' | 'inList' | 'inSubquery' | 'like' | 'exists' }>;

/** IS [NOT] NULL/TRUE/FALSE/DISTINCT FROM, BETWEEN, IN, LIKE and EXISTS, with SQL's NULL rules. */
export function evaluatePredicate(run: QueryRun, expression: Predicate, context: EvaluationContext): RuntimeValue {
  switch (expression.type) {
    case 'isNull': {
      const isNull = run.evaluate(expression.operand, context) === null;
      return expression.negated ? !isNull : isNull;
    }
    case 'isBoolean': {
      const matches = toBoolean(run.evaluate(expression.operand, context)) === expression.value;
      return expression.negated ? !matches : matches;
    }
    case 'isDistinctFrom': {
      const left = run.evaluate(expression.left, context);
      const right = run.evaluate(expression.right, context);
      const distinct = left === null || right === null
        ? left !== right
        : compareWithCoercion(left, run.typeOf(expression.left, context), right, run.typeOf(expression.right, context)) !== 0;
      return expression.negated ? !distinct : distinct;
    }
    case 'between': {
      const operand = run.evaluate(expression.operand, context);
      const operandType = run.typeOf(expression.operand, context);
      const low = compareWithCoercion(operand, operandType, run.evaluate(expression.low, context), run.typeOf(expression.low, context));
      const high = compareWithCoercion(operand, operandType, run.evaluate(expression.high, context), run.typeOf(expression.high, context));
      const result = and(low === null ? null : low >= 0, high === null ? null : high <= 0);
      return expression.negated ? not(result) : result;
    }
    case 'inList': {
      run.budget.work(expression.list.length);
      const operand = run.evaluate(expression.operand, context);
      const candidates = constantCandidates.get(expression.list)
        ?? expression.list.map((item) => ({ value: run.evaluate(item, context), type: run.typeOf(item, context) }));
      if (!constantCandidates.has(expression.list) && expression.list.every((item) => item.type === 'literal')) constantCandidates.set(expression.list, candidates);
      const result = membership(operand, run.typeOf(expression.operand, context), candidates);
      return expression.negated ? not(result) : result;
    }
    case 'inSubquery': {
      const operand = run.evaluate(expression.operand, context);
      const relation = run.runSubquery(expression.query, context);
      if (relation.columns.length !== 1) sqlFailure(`Binder Error: Subquery returns ${relation.columns.length} columns - expected 1`);
      const type = relation.columns[0]!.type;
      run.budget.work(relation.rows.length);
      const result = membership(operand, run.typeOf(expression.operand, context), relation.rows.map((row) => ({ value: row[0]!, type })));
      return expression.negated ? not(result) : result;
    }
    case 'like': {
      const operand = run.evaluate(expression.operand, context);
      const pattern = run.evaluate(expression.pattern, context);
      const escape = expression.escape ? run.evaluate(expression.escape, context) : undefined;
      if (operand === null || pattern === null || escape === null) return null;
      const text = formatSqlValue(operand, run.typeOf(expression.operand, context))!;
      const patternText = formatSqlValue(pattern, 'VARCHAR')!;
      run.budget.text(text.length * (patternText.length + 1));
      const matcher = run.likePattern(patternText, escape === undefined ? undefined : String(escape), expression.caseInsensitive);
      const matched = matcher.matches(expression.caseInsensitive ? convertCase(text, 'lower') : text);
      return expression.negated ? !matched : matched;
    }
    case 'exists': {
      const exists = run.runSubquery(expression.query, context).rows.length > 0;
      return expression.negated ? !exists : exists;
    }
  }
}

/** `x IN (…)`: true on a match, else NULL if a comparison was NULL, else false. */
function membership(operand: RuntimeValue, operandType: SqlType, candidates: Candidate[]): boolean | null {
  if (operand === null) return candidates.length === 0 ? false : null;
  let sawNull = false;
  for (const candidate of candidates) {
    const order = compareWithCoercion(operand, operandType, candidate.value, candidate.type);
    if (order === 0) return true;
    if (order === null) sawNull = true;
  }
  return sawNull ? null : false;
}
