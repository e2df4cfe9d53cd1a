/**
 * srag's use cases, runtime-agnostic: each surface (CLI, `srag serve`, the SQL functions, MCP)
 * reads its input, calls one of these over the ports its runtime implements, and writes the result.
 */
export { ask, type Answer, type AskOptions } from './ask/ask.ts';
export { answerJson, extensionJson } from './ask/answer-json.ts';
export { uniqueColumnNames } from './ask/unique-column-names.ts';
export { estimateExtension, type ExtensionDryRun } from './ask/estimate-extension.ts';
export { chooseRecordTables, type RecordTableChoice } from './ask/choose-record-tables.ts';
export { recordTableSource } from './ask/record-table-source.ts';
export { tableGrower, type GrowthRuntime, type GrowthStore } from './extend/grow-table.ts';
export { estimateBackfill } from './extend/estimate-backfill.ts';
export type { AskPorts } from './ports/ask-ports.ts';
export type { AskEngine } from './ports/ask-engine.ts';
export type { DocumentFiles } from './ports/document-files.ts';
export type { BackfillEstimate, ExtensionReport, GrowOptions, TableGrower, TableGrowth } from './ports/table-grower.ts';
export type { SandboxColumn, SandboxTableDescription, TableExporter, TableSource } from './ports/table-source.ts';
export type { RecordTable, TableMaker } from './tables/record-table.ts';
export { recordTables } from './tables/record-tables.ts';
export { findRecordTable, onlyRecordTable } from './tables/find-record-table.ts';
export { readTableSnapshot, type KnownSchema, type TableLinkRow, type TableSnapshot } from './tables/table-snapshot.ts';
