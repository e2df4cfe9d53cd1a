import { createRequire } from 'node:module';
import type * as NodeApi from '@duckdb/node-api';

/**
 * `@duckdb/node-api`, loaded with `require`. It is CommonJS: imported from an ES module, Node first
 * parses each of its files for the names it exports (cjs-module-lexer), which took ~210 ms where
 * `require` takes ~110 ms — at every start of a command that opens a database and of each DuckDB
 * worker. srag's sources take its values from here; its types still come from the package itself.
 */
const api = createRequire(import.meta.url)('@duckdb/node-api') as typeof NodeApi;

// Each annotated: a declaration build names the package's types, not the path they were found at.
export const ANY: typeof NodeApi.ANY = api.ANY;
export const BIGINT: typeof NodeApi.BIGINT = api.BIGINT;
export const BOOLEAN: typeof NodeApi.BOOLEAN = api.BOOLEAN;
export const DATE: typeof NodeApi.DATE = api.DATE;
export const DOUBLE: typeof NodeApi.DOUBLE = api.DOUBLE;
export const INTEGER: typeof NodeApi.INTEGER = api.INTEGER;
export const LIST: typeof NodeApi.LIST = api.LIST;
export const STRUCT: typeof NodeApi.STRUCT = api.STRUCT;
export const VARCHAR: typeof NodeApi.VARCHAR = api.VARCHAR;
export const listValue: typeof NodeApi.listValue = api.listValue;
export const structValue: typeof NodeApi.structValue = api.structValue;
export const DuckDBDateValue: typeof NodeApi.DuckDBDateValue = api.DuckDBDateValue;
export const DuckDBInstance: typeof NodeApi.DuckDBInstance = api.DuckDBInstance;
export const DuckDBListValue: typeof NodeApi.DuckDBListValue = api.DuckDBListValue;
export const DuckDBPendingResultState: typeof NodeApi.DuckDBPendingResultState = api.DuckDBPendingResultState;
export const DuckDBScalarFunction: typeof NodeApi.DuckDBScalarFunction = api.DuckDBScalarFunction;
export const DuckDBStructValue: typeof NodeApi.DuckDBStructValue = api.DuckDBStructValue;
export const DuckDBTableFunction: typeof NodeApi.DuckDBTableFunction = api.DuckDBTableFunction;
export const DuckDBTypeId: typeof NodeApi.DuckDBTypeId = api.DuckDBTypeId;
export const JsonDuckDBValueConverter: typeof NodeApi.JsonDuckDBValueConverter = api.JsonDuckDBValueConverter;
export const ResultReturnType: typeof NodeApi.ResultReturnType = api.ResultReturnType;
export const StatementType: typeof NodeApi.StatementType = api.StatementType;

// The classes and enums above are types too.
export type DuckDBDateValue = NodeApi.DuckDBDateValue;
export type DuckDBInstance = NodeApi.DuckDBInstance;
export type DuckDBListValue = NodeApi.DuckDBListValue;
export type DuckDBPendingResultState = NodeApi.DuckDBPendingResultState;
export type DuckDBScalarFunction = NodeApi.DuckDBScalarFunction;
export type DuckDBStructValue = NodeApi.DuckDBStructValue;
export type DuckDBTableFunction = NodeApi.DuckDBTableFunction;
export type DuckDBTypeId = NodeApi.DuckDBTypeId;
export type JsonDuckDBValueConverter = typeof NodeApi.JsonDuckDBValueConverter;
export type ResultReturnType = NodeApi.ResultReturnType;
export type StatementType = NodeApi.StatementType;
