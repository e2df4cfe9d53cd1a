import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '../duckdb-node-api.ts';
import {
  attributeDefinitionHash, proposeTargetSchema, recordSchemaToJsonSchema, runExtraction, sqlTypeForKind,
  type AttributeDefinition, type IngestionLogEntry, type RunProgress, type ModelClient, type NormalizedValue, type PromptLibrary, type ResponseCache,
} from '../../../core/index.ts';
import { quoteIdentifier } from '../duckdb-sql-engine.ts';
import { estimateBackfill } from '../estimate-backfill.ts';
import { friendlyPath } from '../friendly-path.ts';
import { hashText } from '../hash-text.ts';
import { readDocumentFile } from '../read-document-file.ts';
import { sandboxExportOptions } from '../sandbox/sandbox-table-source.ts';
import { BridgeStore } from './bridge-store.ts';
import { IngestionLogCopy } from './ingestion-log-copy.ts';
import type { SchemaExtensionReply } from './bridge-protocol.ts';
import type { JournalChannel } from './journal-channel.ts';
import type { AskTable } from './resolve-ask-table.ts';

export interface ExtendAskTableOptions {
  table: AskTable;
  question: string;
  prompts: PromptLibrary;
  /** SRAG_MODEL's client: the target schema. */
  client: ModelClient;
  model: string;
  /** SRAG_EXTRACT_MODEL's client and model: the back-fill. */
  extraction: { client: ModelClient; model: string; cache: ResponseCache; concurrency: number; maxInputTokens: number; callWarningThreshold: number; loadTokenCounter: () => Promise<(text: string) => number> };
  journal: JournalChannel;
  /** The blocked DuckDB thread's export of committed columns (see `CallerRequest`). */
  exportTable: (table: string, columns: string[], file: string) => Promise<void>;
  exportEvidence: (table: string, attributes: string[], file: string) => Promise<void>;
  onWarning: (line: string) => void;
  /** The back-fill's documents before it starts, then its progress (the bridge's progress line). */
  onStart?: (documents: number) => void;
  onProgress?: (progress: RunProgress) => void;
  cancellation: { readonly aborted: boolean };
}

export interface AskTableExtension {
  /** The table as the question sees it: the grown schema, a column per new attribute, statistics computed from the rows. */
  table: AskTable;
  /** Exports that lay the back-filled values over what the database has committed (see `mergedExport`). */
  exportTable: (table: string, columns: string[], file: string) => Promise<void>;
  exportEvidence: (table: string, attributes: string[], file: string) => Promise<void>;
  reply: SchemaExtensionReply;
}

/**
 * `srag_ask(question, extend := true)`: the same steps as `srag ask --extend-schema`, on the bridge
 * worker, which may not query the database while the statement runs. The model names the
 * attributes the question needs that the table lacks (`proposeTargetSchema`); the grown schema
 * is journaled first (`grow-table`: the columns are added when the journal is applied, after the
 * statement); the table's ingestion log is exported by the blocked thread, and the same core run
 * `srag ask` uses (`runExtraction` with `backfill`) extracts only what each record lacks with
 * SRAG_EXTRACT_MODEL, journaling each record's new values and evidence as it arrives — so an
 * interrupted statement resumes where it stopped, without duplicates. The question is then
 * answered in the same statement over the committed columns with the back-filled values laid over
 * them; statistics are refreshed when the journal is applied. A back-fill is never asked about in
 * SQL (there is no terminal): it goes ahead, and its estimate comes back in `schema_extension`.
 */
export async function extendAskTable(options: ExtendAskTableOptions): Promise<AskTableExtension> {
  const { table, journal } = options;
  const proposal = await proposeTargetSchema({
    client: options.client, prompts: options.prompts, table: table.name, schema: table.schema, statistics: table.statistics ?? [], question: options.question, model: options.model,
  });
  const schema = { ...table.schema, attributes: [...table.schema.attributes, ...proposal.attributes] };
  const existing = new Set(table.columns.map((column) => column.name));
  // Attributes of the grown schema the committed table has no column for yet (journaled by this or an unapplied earlier call).
  const uncommitted = schema.attributes.filter((attribute) => !existing.has(attribute.name));
  if (proposal.attributes.length) {
    await journal.write([{ kind: 'grow-table', table: table.name, schemaJson: JSON.stringify(recordSchemaToJsonSchema(schema)) }]);
  }
  const log = await readIngestionLog(options, table);
  const hashes = schema.attributes.map((attribute) => attributeDefinitionHash(attribute, hashText));
  const sources = [...log.values()].filter((entry) => entry.status === 'done' && hashes.some((hash) => !entry.attributeHashes!.includes(hash))).map((entry) => entry.source).sort();
  const reply: SchemaExtensionReply = {
    addedAttributes: proposal.attributes.map((attribute) => attribute.name),
    schemaUsage: proposal.usage,
    extractionUsage: { calls: 0, promptTokens: 0, completionTokens: 0, documents: 0 },
    estimate: null,
    notBackfilled: [],
  };
  const values = new Map<string, Record<string, NormalizedValue>>();
  const evidence: Array<{ source: string; attribute: string; status: string }> = [];
  if (sources.length > 0) {
    // After an interrupted back-fill nothing is new, and any of the schema's attributes may be missing: the estimate takes them all.
    reply.estimate = await estimateBackfill({
      sources, missing: proposal.attributes.length ? proposal.attributes : schema.attributes, schema, prompts: options.prompts, model: options.extraction.model,
      maxInputTokens: options.extraction.maxInputTokens, loadTokenCounter: options.extraction.loadTokenCounter,
    });
    const copy = new IngestionLogCopy();
    for (const entry of log.values()) copy.set(entry);
    const store = new BridgeStore(journal, table.name, copy, options.extraction.cache);
    const save = store.saveRecord.bind(store);
    // What this call back-fills is laid over the committed table below, until the journal is applied.
    store.saveRecord = async (record) => {
      await save(record);
      values.set(record.source, { ...values.get(record.source), ...record.values });
      for (const entry of record.evidence) evidence.push({ source: record.source, attribute: entry.attribute, status: entry.status });
    };
    options.onStart?.(sources.length);
    const before = options.extraction.client.usage.total();
    const summary = await runExtraction({
      client: options.extraction.client, prompts: options.prompts, schema, store, backfill: true, hashText,
      documents: sources.map((source) => {
        const label = friendlyPath(source);
        return { source, label, read: () => readDocumentFile(source, { shownAs: label }) };
      }),
      model: options.extraction.model, concurrency: options.extraction.concurrency, maxInputTokens: options.extraction.maxInputTokens,
      callWarningThreshold: options.extraction.callWarningThreshold, loadTokenCounter: options.extraction.loadTokenCounter,
      onWarning: options.onWarning, onProgress: options.onProgress, cancellation: options.cancellation,
    });
    const after = options.extraction.client.usage.total();
    reply.extractionUsage = {
      calls: after.calls - before.calls, promptTokens: after.promptTokens - before.promptTokens, completionTokens: after.completionTokens - before.completionTokens, documents: summary.done,
    };
    reply.notBackfilled = summary.failures.map((failure) => ({ document: failure.label, reason: failure.error }));
  }
  const laid = schema.attributes.filter((attribute) => !existing.has(attribute.name) || [...values.values()].some((record) => attribute.name in record));
  return {
    table: {
      ...table, schema, statistics: undefined,
      columns: [...table.columns, ...uncommitted.map((attribute) => ({ name: attribute.name, type: sqlTypeForKind[attribute.kind] }))],
    },
    exportTable: (name, columns, file) => mergedExport(options.exportTable, name, columns, file, { existing, laid, values }),
    exportEvidence: (name, attributes, file) => mergedEvidence(options.exportEvidence, name, attributes, file, evidence),
    reply,
  };
}

/**
 * The table's ingestion log, exported by the blocked thread: per document its content hash,
 * status and the attribute definitions its record holds (a record logged before those were kept
 * holds the table's schema as stored).
 */
async function readIngestionLog(options: ExtendAskTableOptions, table: AskTable): Promise<Map<string, IngestionLogEntry>> {
  const storedHashes = table.schema.attributes.map((attribute) => attributeDefinitionHash(attribute, hashText));
  return withScratch(async (directory, connection) => {
    const file = join(directory, 'log.parquet');
    await options.exportTable('srag_ingestion_log', ['table_name', 'source', 'content_hash', 'status', 'error', 'attribute_hashes'], file);
    const rows = (await connection.runAndReadAll('SELECT source, content_hash, status, error, attribute_hashes FROM read_parquet($1) WHERE table_name = $2', [file, table.name])).getRowsJS();
    return new Map(rows.map((row) => [String(row[0]), {
      source: String(row[0]), contentHash: String(row[1]), status: row[2] as IngestionLogEntry['status'], error: row[3] === null ? null : String(row[3]),
      ...(row[2] === 'done' ? { attributeHashes: row[4] === null ? storedHashes : (JSON.parse(String(row[4])) as string[]) } : {}),
    }]));
  });
}

/**
 * Writes `columns` of the table as the question sees it: the committed columns, with each laid
 * attribute's back-filled value over the committed one (a column the database does not have yet
 * is the back-filled values alone). Rows still go from DuckDB to DuckDB: only the values back-filled
 * now cross as JSON.
 */
async function mergedExport(
  exportTable: ExtendAskTableOptions['exportTable'], table: string, columns: string[], file: string,
  state: { existing: Set<string>; laid: AttributeDefinition[]; values: Map<string, Record<string, NormalizedValue>> },
): Promise<void> {
  const laid = state.laid.filter((attribute) => columns.includes(attribute.name));
  if (laid.length === 0) return exportTable(table, columns, file);
  await withScratch(async (directory, connection) => {
    const committed = join(directory, 'committed.parquet');
    await exportTable(table, [...new Set(['_source', ...columns.filter((column) => state.existing.has(column))])], committed);
    const structure = Object.fromEntries([['_source', 'VARCHAR'], ...laid.map((attribute) => [attribute.name, sqlTypeForKind[attribute.kind]])]);
    const rows = [...state.values].map(([source, record]) => ({ _source: source, ...Object.fromEntries(laid.map((attribute) => [attribute.name, record[attribute.name] ?? null])) }));
    const select = columns.map((column) => {
      const quoted = quoteIdentifier(column);
      if (!laid.some((attribute) => attribute.name === column)) return `t.${quoted}`;
      return state.existing.has(column) ? `coalesce(v.${quoted}, t.${quoted}) AS ${quoted}` : `v.${quoted} AS ${quoted}`;
    });
    await connection.run(`COPY (SELECT ${select.join(', ')} FROM read_parquet($1) t LEFT JOIN (SELECT unnest(from_json($2, $3), recursive := true)) v ON v."_source" = t."_source") TO '${file.replace(/'/g, "''")}' (${sandboxExportOptions})`,
      [committed, JSON.stringify(rows), JSON.stringify([structure])]);
  });
}

/** The committed evidence of `attributes`, and that of the values back-filled now (which replaces it). */
async function mergedEvidence(
  exportEvidence: ExtendAskTableOptions['exportEvidence'], table: string, attributes: string[], file: string,
  pending: Array<{ source: string; attribute: string; status: string }>,
): Promise<void> {
  const added = pending.filter((entry) => attributes.includes(entry.attribute));
  if (added.length === 0) return exportEvidence(table, attributes, file);
  await withScratch(async (directory, connection) => {
    const committed = join(directory, 'evidence.parquet');
    await exportEvidence(table, attributes, committed);
    await connection.run(`COPY (
      WITH v AS (SELECT unnest(from_json($2, '[{"source":"VARCHAR","attribute":"VARCHAR","status":"VARCHAR"}]'), recursive := true))
      SELECT source, attribute, status FROM read_parquet($1) t WHERE NOT EXISTS (SELECT 1 FROM v WHERE v.source = t.source AND v.attribute = t.attribute)
      UNION ALL SELECT source, attribute, status FROM v) TO '${file.replace(/'/g, "''")}' (${sandboxExportOptions})`, [committed, JSON.stringify(added)]);
  });
}

/** An in-memory DuckDB and a private directory for one step, both gone afterwards. */
async function withScratch<T>(work: (directory: string, connection: Awaited<ReturnType<DuckDBInstance['connect']>>) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'srag-extend-'));
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const connection = await instance.connect();
    try {
      return await work(directory, connection);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
    await rm(directory, { recursive: true, force: true });
  }
}
