import type { QueryBudget } from '../query-budget.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';

/** A scalar function of the subset; each mirrors the DuckDB function of its name. */
export interface ScalarFunction {
  minimumArguments: number;
  maximumArguments: number;
  /** Most functions give NULL when an argument is NULL; the others see the NULLs. */
  seesNulls?: boolean;
  returnType(argumentTypes: SqlType[]): SqlType;
  /** `budget` is charged by functions whose work grows with their input (regular expressions). */
  evaluate(args: RuntimeValue[], argumentTypes: SqlType[], budget: QueryBudget): RuntimeValue;
}

/** Definitions by the lower-case names (aliases first-class) a query may call them by. */
export type ScalarFunctionList = Array<[names: string[], definition: ScalarFunction]>;

export const fixedType = (type: SqlType) => (): SqlType => type;

export const typeOfFirst = (types: SqlType[]): SqlType => types[0] ?? 'UNKNOWN';
