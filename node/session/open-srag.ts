import type { DuckDBConnection } from '@duckdb/node-api';
import { ask, estimateExtension, findRecordTable, onlyRecordTable, type Answer, type AskOptions, type ExtensionDryRun, type RecordTable, type TableMaker } from '../../app/index.ts';
import { recordSchemaToJsonSchema, type AttributeDefinition, type ChildEntity } from '../../core/index.ts';
import { readRecordTables } from '../duckdb/catalog/read-record-tables.ts';
import { embedderLoader } from './embedder-loader.ts';
import { explainValue, type ValueExplanation } from '../duckdb/explain-value.ts';
import { openSession, type OpenSessionOptions, type Session } from './open-session.ts';
import { readTableStats, type TableStats } from '../duckdb/read-table-stats.ts';
import { sessionAskPorts } from './session-ask-ports.ts';
import { ingest, type IngestListeners, type IngestRequest } from './ingest.ts';
import type { IngestOutcome } from './ingest-outcome.ts';

/** A table as `describeTables` lists it: what made it, what it holds, and how it relates to others. */
export interface TableDescription {
  name: string;
  madeBy: TableMaker;
  title: string;
  attributes: AttributeDefinition[];
  entities: ChildEntity[];
  /** For a child entity's table: the table of the documents that list its items. */
  parent?: string;
  /** For an imported table: the file it came from, and what the user said it holds. */
  importedFrom?: string;
  description?: string;
}

/** A table's record schema as `GET /schema` and MCP give it: the attributes, and the JSON Schema. */
export interface TableSchema {
  table: string;
  title: string;
  madeBy: TableMaker;
  attributes: AttributeDefinition[];
  jsonSchema: Record<string, unknown>;
}

/**
 * srag's use cases over one database file, for Node: each a method, each the same on every surface
 * that calls it (the CLI, `srag serve`, `srag mcp`). Reads get a connection of their own, so a
 * question never lands inside an ingest's transaction and questions run side by side.
 */
export interface Srag {
  /** The session underneath (store, settings, prompts, model clients), for the use cases not here yet. */
  readonly session: Session;
  readonly database: string;
  /** One question through app's `ask`: tables chosen (or named), SQL in the sandbox, coverage, the answer. */
  ask(question: string, options?: AskOptions): Promise<Answer>;
  /** What extending the schema for `question` would add and cost, with no extraction call and nothing added. */
  estimateExtension(question: string, options?: { table?: string }): Promise<ExtensionDryRun>;
  /** Where one value came from: its quote, raw model output, status and reason (`srag why`). */
  explain(request: { document: string; attribute: string; table?: string }): Promise<ValueExplanation>;
  /** Every table a question may read, whatever made it. */
  describeTables(): Promise<TableDescription[]>;
  /** A table's schema: the named one, or the only table of documents. */
  schema(table?: string): Promise<TableSchema>;
  /** A table's rows, ingestion log counts and column statistics (`srag stats`). */
  stats(table?: string): Promise<TableStats>;
  /** Documents into a table, or a dry run's estimate: budget, Batch API, synthesis, moved documents (see `ingest`); `ingestOutcomeJson` gives its JSON. */
  ingest(request: IngestRequest, listeners?: IngestListeners): Promise<IngestOutcome>;
  close(): void;
}

export async function openSrag(databasePath: string, options: OpenSessionOptions = {}): Promise<Srag> {
  const session = await openSession(databasePath, options);
  const loadEmbedder = embedderLoader(session);
  const withReader = async <T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T> => {
    const connection = await session.store.instance.connect();
    try {
      return await read(connection);
    } finally {
      connection.closeSync();
    }
  };
  const database = session.store.path;
  const recordTable = async (table: string | undefined): Promise<RecordTable> => {
    const tables = await withReader(readRecordTables);
    return table === undefined ? onlyRecordTable(tables, database) : findRecordTable(tables, table, database);
  };
  return {
    session,
    database,
    ask: (question, askOptions = {}) => withReader((connection) => ask(sessionAskPorts(session, connection, { loadEmbedder }), question, askOptions)),
    estimateExtension: (question, { table } = {}) => withReader((connection) =>
      estimateExtension(sessionAskPorts(session, connection, { loadEmbedder }), question, { table, extractModel: session.settings.extractModel })),
    explain: (request) => withReader((connection) => explainValue(connection, { ...request, database })),
    describeTables: async () => (await withReader(readRecordTables)).map((table) => ({
      name: table.name, madeBy: table.madeBy, title: table.schema.title, attributes: table.schema.attributes, entities: table.schema.entities ?? [],
      ...(table.parent ? { parent: table.parent.table } : {}),
      ...(table.importedFrom ? { importedFrom: table.importedFrom } : {}),
      ...(table.description ? { description: table.description } : {}),
    })),
    schema: async (table) => {
      const found = await recordTable(table);
      return { table: found.name, title: found.schema.title, madeBy: found.madeBy, attributes: found.schema.attributes, jsonSchema: recordSchemaToJsonSchema(found.schema) };
    },
    stats: (table) => withReader((connection) => readTableStats(connection, table, database)),
    ingest: (request, listeners) => ingest(session, request, listeners),
    close: () => session.close(),
  };
}
