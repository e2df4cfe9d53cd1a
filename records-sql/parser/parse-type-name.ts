import type { SqlType } from '../syntax/sql-syntax.ts';
import type { TokenCursor } from './token-cursor.ts';

/** DuckDB's type names and aliases, by the runtime type the engine keeps. */
const typeNames = new Map<string, SqlType>(Object.entries({
  INTEGER: 'INTEGER', INT: 'INTEGER', INT4: 'INTEGER', INT8: 'INTEGER', BIGINT: 'INTEGER', SMALLINT: 'INTEGER', TINYINT: 'INTEGER',
  HUGEINT: 'INTEGER', UBIGINT: 'INTEGER', UINTEGER: 'INTEGER', USMALLINT: 'INTEGER', UTINYINT: 'INTEGER', LONG: 'INTEGER', SHORT: 'INTEGER',
  DOUBLE: 'DOUBLE', FLOAT: 'DOUBLE', FLOAT4: 'DOUBLE', FLOAT8: 'DOUBLE', REAL: 'DOUBLE', DECIMAL: 'DOUBLE', NUMERIC: 'DOUBLE',
  VARCHAR: 'VARCHAR', TEXT: 'VARCHAR', STRING: 'VARCHAR', CHAR: 'VARCHAR', BPCHAR: 'VARCHAR',
  BOOLEAN: 'BOOLEAN', BOOL: 'BOOLEAN', LOGICAL: 'BOOLEAN',
  DATE: 'DATE',
} satisfies Record<string, SqlType>));

/** A type name after `CAST(… AS` or `::`; a precision such as DECIMAL(10, 2) is read and dropped. */
export function parseTypeName(cursor: TokenCursor): SqlType {
  const name = cursor.name('a type name').toUpperCase();
  if (name === 'DOUBLE') cursor.acceptWord('PRECISION');
  if (cursor.acceptSymbol('(')) {
    do cursor.next(); while (cursor.acceptSymbol(','));
    cursor.expectSymbol(')');
  }
  if (cursor.isSymbol('[')) cursor.unsupported('list types');
  return typeNames.get(name) ?? cursor.unsupported(`the type ${name}`);
}
