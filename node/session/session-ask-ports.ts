import type { DuckDBConnection } from '@duckdb/node-api';
import { recordTables, tableGrower, type AskPorts, type GrowthRuntime, type RecordTable } from '../../app/index.ts';
import type { TextEmbedder } from '../../core/index.ts';
import { readTableLinks, readTableSnapshotOver } from '../duckdb/catalog/read-table-snapshot.ts';
import { DuckDbSqlEngine } from '../duckdb/duckdb-sql-engine.ts';
import { hashText } from '../runtime/hash-text.ts';
import { loadModelPrices } from '../runtime/load-model-prices.ts';
import { nodeDocumentFiles } from '../runtime/node-document-files.ts';
import type { Session } from './open-session.ts';
import { connectionTableExporter } from '../duckdb/sandbox/connection-table-exporter.ts';
import { storeDocumentReader } from '../duckdb/store/store-document-reader.ts';

/**
 * The ports a question asks of a session (`srag ask`, `srag serve`, `srag mcp`): the database read
 * and exported over `connection` (a reader of its own, so a question never lands inside an
 * ingest's transaction), tables grown in the store, documents read from the paths the store keeps.
 */
export function sessionAskPorts(session: Session, connection: DuckDBConnection, { loadEmbedder }: { loadEmbedder: () => Promise<TextEmbedder | undefined> }): AskPorts {
  const readTables = (question: string, table: string | undefined) => readTableSnapshotOver(connection, question, table);
  return {
    client: session.modelClient(),
    prompts: session.prompts,
    model: session.settings.model,
    database: session.store.path,
    readTables,
    readLinks: (tables) => readTableLinks(connection, tables),
    exporter: connectionTableExporter(connection),
    openEngine: (source) => new DuckDbSqlEngine(source),
    grower: tableGrower(growthRuntime(session), {
      keepSchema: async (table, schema) => (await session.store.registerTable(table, schema)).schema,
      incompleteSources: (table, schema) => session.store.incompleteSources(table.name, schema),
      extractionStore: (table, schema) => session.store.extractionStore(table, schema),
      // The store committed the columns and values, and refreshed the statistics: the table is read again.
      grownTable: async (table) => ({ table: recordTables(await readTables('', table.name)).find((candidate) => candidate.name === table.name) ?? table }),
    }),
    hybridReading: (tables: RecordTable[]) => ({
      reader: storeDocumentReader(session.store, tables.map((table) => table.name)), hashText, loadEmbedder, loadTokenCounter: () => session.loadTokenCounter(),
    }),
  };
}

/** What growing a table takes of the session: its models, settings, prices and documents. */
export function growthRuntime(session: Session): GrowthRuntime {
  const { settings } = session;
  return {
    client: session.modelClient(),
    prompts: session.prompts,
    model: settings.model,
    extractionClient: (cache) => session.modelClient({ cache }),
    extractModel: settings.extractModel,
    concurrency: settings.concurrency * 2,
    maxInputTokens: settings.maxInputTokens,
    callWarningThreshold: settings.callWarningThreshold,
    confirmDocuments: settings.confirmDocuments,
    documents: nodeDocumentFiles,
    loadPrices: () => loadModelPrices(),
    loadTokenCounter: session.loadTokenCounter,
    hashText,
  };
}
