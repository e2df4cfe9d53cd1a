import { sqlFailure } from '../sql-failure.ts';
import type { Expression, SqlType } from '../syntax/sql-syntax.ts';
import { inCommonNumericType } from '../values/common-numeric-type.ts';
import { decimalParts } from '../values/decimal-type.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import { compareSqlValues, compareWithCoercion } from '../values/compare-sql-values.ts';
import { convertCase } from '../unicode/convert-case.ts';
import { formatSqlValue } from '../values/format-sql-value.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import { and, not, toBoolean } from './three-valued-logic.ts';

type Candidate = { value: RuntimeValue; type: SqlType; expression?: Expression };

/** An IN list of literals is evaluated once, not once per row; each item is still a step per row. */
const constantCandidates = new WeakMap<Expression[], { candidates: Candidate[]; decimal: boolean }>();

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
      const sides: Candidate[] = [expression.operand, expression.low, expression.high].map((side) => ({ value: run.evaluate(side, context), type: run.typeOf(side, context), expression: side }));
      const [low, high] = [betweenOrder(sides, 1), betweenOrder(sides, 2)];
      const result = and(low === null ? null : low >= 0, high === null ? null : high <= 0);
      return expression.negated ? not(result) : result;
    }
    case 'inList': {
      run.budget.work(expression.list.length);
      const operand = run.evaluate(expression.operand, context);
      const constant = constantCandidates.get(expression.list);
      const candidates = constant?.candidates
        ?? expression.list.map((item) => ({ value: run.evaluate(item, context), type: run.typeOf(item, context), expression: item }));
      // Whether a DECIMAL is among the items: asked once for a list of literals, not once per row.
      const decimal = constant?.decimal ?? candidates.some(hasDecimal);
      if (!constant && expression.list.every((item) => item.type === 'literal')) constantCandidates.set(expression.list, { candidates, decimal });
      const result = membership({ value: operand, type: run.typeOf(expression.operand, context), expression: expression.operand }, candidates, decimal);
      return expression.negated ? not(result) : result;
    }
    case 'inSubquery': {
      const operand = run.evaluate(expression.operand, context);
      const relation = run.runSubquery(expression.query, context);
      if (relation.columns.length !== 1) sqlFailure(`Binder Error: Subquery returns ${relation.columns.length} columns - expected 1`);
      const type = relation.columns[0]!.type;
      run.budget.work(relation.rows.length);
      const result = membership({ value: operand, type: run.typeOf(expression.operand, context), expression: expression.operand }, relation.rows.map((row) => ({ value: row[0]!, type })), decimalParts(type) !== undefined);
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

/** The order of BETWEEN's operand (`sides[0]`) against a bound, in DuckDB's common type when a DECIMAL is among them. */
function betweenOrder(sides: Candidate[], bound: 1 | 2): number | null {
  const common = inCommonNumericType(sides);
  if (!common) return compareWithCoercion(sides[0]!.value, sides[0]!.type, sides[bound]!.value, sides[bound]!.type);
  const [operand, limit] = [common[0]!, common[bound]!];
  return operand === null || limit === null ? null : compareSqlValues(operand, limit);
}

/** Whether a side is a DECIMAL (by its value or its type): only then is an IN list compared in one common type. */
function hasDecimal(side: Candidate): boolean {
  return side.value instanceof SqlDecimal || decimalParts(side.type) !== undefined;
}

/** `x IN (…)`: true on a match, else NULL if a comparison was NULL, else false. */
function membership(operandSide: Candidate, candidates: Candidate[], listHasDecimal: boolean): boolean | null {
  const { value: operand, type: operandType } = operandSide;
  // The list is cast to the common type first: DuckDB casts a text literal there as it binds, so
  // one that does not fit fails the query even where the operand is NULL.
  const common = hasDecimal(operandSide) || listHasDecimal ? inCommonNumericType([operandSide, ...candidates]) : undefined;
  if (operand === null) return candidates.length === 0 ? false : null;
  if (common) {
    const [value, ...values] = common;
    if (values.some((candidate) => candidate !== null && compareSqlValues(value!, candidate) === 0)) return true;
    return values.includes(null) ? null : false;
  }
  let sawNull = false;
  for (const candidate of candidates) {
    const order = compareWithCoercion(operand, operandType, candidate.value, candidate.type);
    if (order === 0) return true;
    if (order === null) sawNull = true;
  }
  return sawNull ? null : false;
}
