import { dateFunctions } from './date-functions.ts';
import { formatFunctions } from './format-functions.ts';
import { nullFunctions } from './null-functions.ts';
import { numberFunctions } from './number-functions.ts';
import { regularExpressionFunctions } from './regular-expression-functions.ts';
import type { ScalarFunction } from './scalar-function.ts';
import { substringFunctions } from './substring-functions.ts';
import { textFunctions } from './text-functions.ts';

/** A Map, not an object: a query calling `constructor(1)` or `__proto__(1)` must find nothing. */
const scalarFunctions = new Map<string, ScalarFunction>();
for (const list of [numberFunctions, nullFunctions, textFunctions, substringFunctions, regularExpressionFunctions, formatFunctions, dateFunctions]) {
  for (const [names, definition] of list) for (const name of names) scalarFunctions.set(name, definition);
}

/** The scalar function a query calls by `name` (lower-case), if the subset has it. */
export function findScalarFunction(name: string): ScalarFunction | undefined {
  return scalarFunctions.get(name);
}
