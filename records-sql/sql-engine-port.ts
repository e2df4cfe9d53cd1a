/**
 * The part of core this package builds on: the SQL-engine port it implements and the errors it
 * throws. Named file by file so that records-sql type-checks with the ECMAScript library alone.
 */
export { SqlRejectedError } from '../core/errors/sql-rejected-error.ts';
export { SragError } from '../core/errors/srag-error.ts';
export type { ParsedSelect, SqlEngine, SqlResult, SqlValue } from '../core/ports/sql-engine.ts';
