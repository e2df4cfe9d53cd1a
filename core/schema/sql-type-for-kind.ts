import type { AttributeKind } from './attribute-definition.ts';

/** The SQL column type that holds each kind of attribute: DuckDB's names, which the Sheets engine takes too. */
export const sqlTypeForKind = {
  string: 'VARCHAR',
  number: 'DOUBLE',
  integer: 'BIGINT',
  boolean: 'BOOLEAN',
  date: 'DATE',
} as const satisfies Record<AttributeKind, string>;

/** A record column's SQL type: one of the values of `sqlTypeForKind`. */
export type RecordColumnSqlType = (typeof sqlTypeForKind)[AttributeKind];
