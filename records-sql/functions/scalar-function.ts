import type { QueryBudget } from '../query-budget.ts';
import type { Expression, SqlType } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';

/** A scalar function of the subset; each mirrors the DuckDB function of its name. */
export interface ScalarFunction {
  minimumArguments: number;
  maximumArguments: number;
  /** Most functions give NULL when an argument is NULL; the others see the NULLs. */
  seesNulls?: boolean;
  /**
   * coalesce() evaluates its arguments in order and stops at the first that is not NULL, as DuckDB
   * does: an argument after it is never evaluated, so it cannot fail (the rest are passed as NULL).
   */
  stopsAtFirstValue?: boolean;
  /** `argumentExpressions`: for a type that depends on a constant argument (round(DECIMAL, 2) is DECIMAL(·,2)). */
  returnType(argumentTypes: SqlType[], argumentExpressions: Expression[]): SqlType;
  /**
   * `budget` is charged by functions whose work grows with their input (regular expressions);
   * `argumentExpressions` are there for a function DuckDB binds by an argument's constant value.
   */
  evaluate(args: RuntimeValue[], argumentTypes: SqlType[], budget: QueryBudget, argumentExpressions: Expression[]): RuntimeValue;
}

/** Definitions by the lower-case names (aliases first-class) a query may call them by. */
export type ScalarFunctionList = Array<[names: string[], definition: ScalarFunction]>;

export const fixedType = (type: SqlType) => (): SqlType => type;

export const typeOfFirst = (types: SqlType[]): SqlType => types[0] ?? 'UNKNOWN';
