import {
  countNoun, proposeTargetSchema, runExtraction, SragError,
  type ExtractionStore, type ModelClient, type ModelPrices, type PromptLibrary, type RecordSchema, type ResponseCache, type RunSummary,
} from '../../core/index.ts';
import type { DocumentFiles } from '../ports/document-files.ts';
import type { ExtensionReport, GrowOptions, TableGrower, TableGrowth } from '../ports/table-grower.ts';
import type { TableExporter } from '../ports/table-source.ts';
import type { RecordTable } from '../tables/record-table.ts';
import { estimateBackfill } from './estimate-backfill.ts';

/**
 * Where a table grows. The session's store adds the columns and saves each record's new values at
 * once; `srag_ask`'s journals them, to be applied when the statement ends, and lays them over the
 * committed rows meanwhile (`grownTable`'s exporter).
 */
export interface GrowthStore {
  /** Keeps `schema` (the table's, grown) as the table's: a NULL column per new attribute. */
  keepSchema(table: string, schema: RecordSchema): Promise<RecordSchema>;
  /**
   * The documents logged done whose records lack a definition of `schema`'s attributes (new ones,
   * or ones an interrupted back-fill left); `table` as it was before it grew.
   */
  incompleteSources(table: RecordTable, schema: RecordSchema): Promise<string[]>;
  /** Where the back-fill saves records and replies. */
  extractionStore(table: string, schema: RecordSchema): ExtractionStore & { responseCache: ResponseCache };
  /** The table as a question sees it once grown (committed or laid over). */
  grownTable(table: RecordTable, schema: RecordSchema): Promise<{ table: RecordTable; exporter?: TableExporter }>;
}

/** What growing needs of the runtime besides the store: models, documents, prices and limits. */
export interface GrowthRuntime {
  /** SRAG_MODEL's client: the target schema. */
  client: ModelClient;
  prompts: PromptLibrary;
  model: string;
  /** SRAG_EXTRACT_MODEL's client over the table's own response cache. */
  extractionClient(cache: ResponseCache): ModelClient;
  extractModel: string;
  concurrency: number;
  maxInputTokens: number;
  callWarningThreshold: number;
  /** A back-fill of more documents than this is asked about (SRAG_CONFIRM_DOCUMENTS). */
  confirmDocuments: number;
  documents: DocumentFiles;
  /** The price table, read when an estimate needs it. */
  loadPrices: () => ModelPrices;
  loadTokenCounter: () => Promise<(text: string) => number>;
  hashText: (text: string) => string;
}

/**
 * SRAG's target schema at question time (`srag ask --extend-schema`, `POST /query
 * {extend_schema: true}`, `srag_ask(…, extend := true)`, MCP): the model names the attributes the
 * question needs that the table lacks; they are kept as the table's (a NULL column each); every
 * record that lacks an attribute of the schema — the new ones, or ones an interrupted back-fill
 * left — gets only those, extracted with SRAG_EXTRACT_MODEL from its document as it is now (a
 * changed or missing document is reported per row, never mixed in), evidence recorded. A dry run
 * stops after the estimate: nothing is added and no extraction call is made.
 */
export function tableGrower(runtime: GrowthRuntime, store: GrowthStore): TableGrower {
  return { grow: (table, question, options) => growTable(runtime, store, table, question, options) };
}

async function growTable(runtime: GrowthRuntime, store: GrowthStore, table: RecordTable, question: string, options: GrowOptions): Promise<TableGrowth> {
  const notice = options.onNotice ?? (() => {});
  const proposal = await proposeTargetSchema({
    client: runtime.client, prompts: runtime.prompts, table: table.name, schema: table.schema, statistics: table.statistics, question, model: runtime.model,
  });
  const grown = { ...table.schema, attributes: [...table.schema.attributes, ...proposal.attributes] };
  let schema = table.schema;
  if (options.dryRun) {
    schema = grown;
  } else if (proposal.attributes.length) {
    schema = await store.keepSchema(table.name, grown);
    notice(`${table.name}: added ${proposal.attributes.map((attribute) => `${attribute.name} (${attribute.kind})`).join(', ')} for this question`);
  }
  const report: ExtensionReport = {
    addedAttributes: proposal.attributes, schemaUsage: proposal.usage, extractionUsage: { calls: 0, promptTokens: 0, completionTokens: 0, documents: 0 }, notBackfilled: [],
  };
  const sources = await store.incompleteSources(table, schema);
  if (sources.length > 0) {
    // After an interrupted back-fill nothing is new, and any of the schema's attributes may be missing: the estimate takes them all.
    report.estimate = await estimateBackfill({
      sources, missing: proposal.attributes.length ? proposal.attributes : schema.attributes, schema, prompts: runtime.prompts, model: runtime.extractModel,
      prices: runtime.loadPrices(), documents: runtime.documents, maxInputTokens: runtime.maxInputTokens, loadTokenCounter: runtime.loadTokenCounter,
    });
  }
  if (options.dryRun) return { table, report };
  if (sources.length > 0) await backfill(runtime, store, table.name, schema, sources, report, options);
  return { ...(await store.grownTable(table, schema)), report };
}

async function backfill(runtime: GrowthRuntime, store: GrowthStore, table: string, schema: RecordSchema, sources: string[], report: ExtensionReport, options: GrowOptions): Promise<void> {
  const notice = options.onNotice ?? (() => {});
  if (sources.length > runtime.confirmDocuments) {
    notice(report.estimate!.text);
    if (options.confirm && !(await options.confirm(report.estimate!))) {
      throw new SragError({ code: 'CANCELLED', message: 'back-fill not started; nothing was extracted', hint: 'run the same command with --yes to go ahead, or raise SRAG_CONFIRM_DOCUMENTS' });
    }
  }
  const extractionStore = store.extractionStore(table, schema);
  const client = runtime.extractionClient(extractionStore.responseCache);
  const before = client.usage.total();
  const stopRetryNotices = options.onRetry ? client.onRetry(options.onRetry) : () => {};
  let summary: RunSummary;
  try {
    summary = await runExtraction({
      client, prompts: runtime.prompts, schema, store: extractionStore, backfill: true, hashText: runtime.hashText,
      documents: sources.map((source) => {
        const label = runtime.documents.label(source);
        return { source, label, read: () => runtime.documents.read(source) };
      }),
      model: runtime.extractModel, concurrency: runtime.concurrency, maxInputTokens: runtime.maxInputTokens,
      callWarningThreshold: runtime.callWarningThreshold, loadTokenCounter: runtime.loadTokenCounter,
      onProgress: options.onProgress, onWarning: (line) => notice(`warning: ${line}`), cancellation: options.cancellation,
    });
  } finally {
    stopRetryNotices();
  }
  // A client may serve several questions of one command: this back-fill's share is a difference.
  const after = client.usage.total();
  report.extractionUsage = {
    calls: after.calls - before.calls, promptTokens: after.promptTokens - before.promptTokens, completionTokens: after.completionTokens - before.completionTokens, documents: summary.done,
  };
  report.notBackfilled = summary.failures.map((failure) => ({ document: failure.label, reason: failure.error }));
  const usage = report.extractionUsage;
  notice(`${table}: back-filled ${countNoun(summary.done, 'record')} with ${countNoun(usage.calls, 'extraction call')} (${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens)`);
  for (const failure of summary.failures.slice(0, 10)) notice(`not back-filled: ${failure.label}: ${failure.error}`);
  if (summary.failed + summary.stale > 10) notice(`… and ${summary.failed + summary.stale - 10} more; see srag sql -c "SELECT source, attribute, reason FROM srag_evidence WHERE reason IS NOT NULL"`);
}
