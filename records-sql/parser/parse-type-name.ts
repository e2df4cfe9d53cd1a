import type { SqlType } from '../syntax/sql-syntax.ts';
import { decimalType, widestDecimal } from '../values/decimal-type.ts';
import type { TokenCursor } from './token-cursor.ts';
import { sqlFailure } from '../sql-failure.ts';

/** DuckDB's type names and aliases, by the runtime type the engine keeps. */
const typeNames = new Map<string, SqlType>(Object.entries({
  INTEGER: 'INTEGER', INT: 'INTEGER', INT4: 'INTEGER', INT8: 'INTEGER', BIGINT: 'INTEGER', SMALLINT: 'INTEGER', TINYINT: 'INTEGER',
  HUGEINT: 'INTEGER', UBIGINT: 'INTEGER', UINTEGER: 'INTEGER', USMALLINT: 'INTEGER', UTINYINT: 'INTEGER', LONG: 'INTEGER', SHORT: 'INTEGER',
  DOUBLE: 'DOUBLE', FLOAT: 'DOUBLE', FLOAT4: 'DOUBLE', FLOAT8: 'DOUBLE', REAL: 'DOUBLE',
  VARCHAR: 'VARCHAR', TEXT: 'VARCHAR', STRING: 'VARCHAR', CHAR: 'VARCHAR', BPCHAR: 'VARCHAR',
  BOOLEAN: 'BOOLEAN', BOOL: 'BOOLEAN', LOGICAL: 'BOOLEAN',
  DATE: 'DATE',
} satisfies Record<string, SqlType>));

/** How many digits each integer type holds, as a DECIMAL of it would (DuckDB's GetDecimalProperties). */
const integerDigits = new Map<string, number>(Object.entries({
  TINYINT: 3, UTINYINT: 3, SMALLINT: 5, SHORT: 5, USMALLINT: 5, INTEGER: 10, INT: 10, INT4: 10, UINTEGER: 10,
  BIGINT: 19, INT8: 19, LONG: 19, UBIGINT: 20, HUGEINT: 38,
}));

/** A type as written: the runtime type, and for an integer type its digits (this engine keeps one integer type). */
export interface TypeName {
  type: SqlType;
  integerDigits?: number;
}

/** DuckDB's DECIMAL without a width is DECIMAL(18,3). */
const defaultDecimal = { width: 18, scale: 3 };

/**
 * A type name after `CAST(… AS` or `::`. DECIMAL and NUMERIC keep their width and scale, checked
 * as DuckDB checks them; any other type's parameters (VARCHAR(10)) are read and dropped.
 */
export function parseTypeName(cursor: TokenCursor): TypeName {
  const name = cursor.name('a type name').toUpperCase();
  if (name === 'DOUBLE') cursor.acceptWord('PRECISION');
  const parameters: string[] = [];
  if (cursor.acceptSymbol('(')) {
    do {
      const token = cursor.next();
      parameters.push(token.kind === 'number' ? token.text : '?');
    } while (cursor.acceptSymbol(','));
    cursor.expectSymbol(')');
  }
  if (cursor.isSymbol('[')) cursor.unsupported('list types');
  if (name === 'DECIMAL' || name === 'NUMERIC' || name === 'DEC') return { type: decimalTypeOf(parameters) };
  return { type: typeNames.get(name) ?? cursor.unsupported(`the type ${name}`), integerDigits: integerDigits.get(name) };
}

function decimalTypeOf(parameters: string[]): SqlType {
  if (parameters.length === 0) return decimalType(defaultDecimal.width, defaultDecimal.scale);
  if (parameters.length > 2 || parameters.some((parameter) => !/^[0-9]+$/.test(parameter))) sqlFailure('Parser Error: DECIMAL takes a width and a scale, whole numbers: DECIMAL(10, 2)');
  const [width, scale = 0] = parameters.map(Number) as [number, number?];
  if (width < 1 || width > widestDecimal) sqlFailure(`Binder Error: DECIMAL type width must be between 1 and ${widestDecimal}`);
  if (scale > width) sqlFailure('Binder Error: DECIMAL type scale cannot be greater than width');
  return decimalType(width, scale);
}
