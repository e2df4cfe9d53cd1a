/**
 * records-sql: a subset of DuckDB's SQL evaluated in plain JavaScript over rows handed in, behind
 * core's `SqlEngine` port. It serves the Sheets add-on, where DuckDB cannot run; it needs nothing
 * but the ECMAScript library (no Node, no DOM, no Apps Script).
 */
export { InMemorySqlEngine, type InMemoryTable, type RecordColumnType, type RowsCovered } from './in-memory-sql-engine.ts';
export { recordsSqlDialect } from './records-sql-dialect.ts';
