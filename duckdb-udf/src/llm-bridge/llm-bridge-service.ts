import { setMaxListeners } from 'node:events';
import { setTimeout as wait } from 'node:timers/promises';
import pLimit from 'p-limit';
import {
  extractDocuments, ModelClient, recordSchemaToJsonSchema, SragError,
  type LanguageModel, type ModelUsage, type PromptLibrary, type RecordSchema,
} from '../../../core/index.ts';
import { loadPromptLibrary } from '../load-prompt-library.ts';
import { endpointLanguageModel } from '../endpoint-language-model.ts';
import { readSettings, type SragSettings } from '../read-settings.ts';
import { askOverTable } from './ask-over-table.ts';
import type { BridgeRequest, CallerRequest, ExtractedRow, ExtractionSettings, PendingWrites, SchemaWrite } from './bridge-protocol.ts';
import { ExtractionLog } from './extraction-log.ts';
import { ExtractionScan } from './extraction-scan.ts';
import { MirroredResponseCache } from './mirrored-response-cache.ts';
import { ProgressLine } from './progress-line.ts';
import { readDocumentFile } from '../read-document-file.ts';

/**
 * Everything asynchronous behind the SQL functions, run on the bridge worker: model clients
 * (one per concurrency a scan asks for, sharing the cache and the endpoint), scans, questions,
 * and the copies of the cache and log. Each request maps to one core call; this class only
 * keeps the state those calls share across DuckDB callbacks.
 */
export class LlmBridgeService {
  private readonly settings: SragSettings;
  private readonly prompts: PromptLibrary = loadPromptLibrary();
  private readonly languageModel: LanguageModel;
  private readonly cache = new MirroredResponseCache();
  private readonly log = new ExtractionLog();
  private readonly progress: ProgressLine;
  private readonly countTokens: Promise<(text: string) => number>;
  private unsavedSchemas: SchemaWrite[] = [];
  /** Schemas srag_extract was called with (key → JSON Schema text), this session's and those stored. */
  private readonly extractSchemas = new Map<string, string>();
  private abort = LlmBridgeService.abortController();
  private clients = new Map<number, ModelClient>();
  /** Usage of clients retired by a cancel, still part of the session's totals. */
  private readonly retiredUsage: ModelUsage[] = [];
  private readonly scans = new Map<number, ExtractionScan>();
  private nextScanId = 1;

  private readonly askCaller: (request: CallerRequest) => Promise<void>;

  constructor({ environment, progress, askCaller }: {
    environment: Record<string, string | undefined>;
    progress: boolean;
    /** Work only the thread blocked in the current DuckDB callback can do (see `CallerRequest`). */
    askCaller: (request: CallerRequest) => Promise<void>;
  }) {
    this.askCaller = askCaller;
    this.settings = readSettings(environment);
    // A scan answered wholly from the cache needs no endpoint; the missing-endpoint error waits for a real call.
    this.languageModel = endpointLanguageModel(this.settings);
    this.progress = new ProgressLine(progress ? undefined : false);
    // The same o200k counter `srag ingest` splits long documents with, so both send the same requests.
    this.countTokens = import('../count-tokens.ts').then((module) => rememberCounts(module.countTokens));
  }

  async handle(request: BridgeRequest): Promise<unknown> {
    switch (request.type) {
      case 'load':
        this.cache.load(request.cache);
        this.log.load(request.log);
        for (const schema of request.schemas) this.extractSchemas.set(schema.schemaKey, schema.schemaJson);
        return null;
      case 'start-scan':
        return { scanId: this.startScan(request.schema, request.schemaKey, request.documents, request.settings) };
      case 'next-rows': {
        const scan = this.scans.get(request.scanId);
        if (!scan) throw new SragError({ code: 'CANCELLED', message: 'srag_extract: the scan was cancelled' });
        const next = await scan.next(request.maximum);
        if (next.done) {
          this.scans.delete(request.scanId);
          this.progress.clear();
        }
        return next;
      }
      case 'extract-texts':
        return { rows: await this.extractTexts(request.schema, request.documents, request.settings) };
      case 'ask': {
        // A schema recorded in this session may not be written yet; the table's own SQL cannot see it.
        const known = new Set(request.request.knownSchemas.filter((schema) => schema.origin === 'srag_extract').map((schema) => schema.name));
        const knownSchemas = [...request.request.knownSchemas];
        for (const [name, schemaJson] of this.extractSchemas) {
          if (!known.has(name)) knownSchemas.push({ name, schemaJson, statisticsJson: null, origin: 'srag_extract' });
        }
        return askOverTable({
          client: this.client(this.settings.concurrency), prompts: this.prompts, request: { ...request.request, knownSchemas }, model: this.settings.model,
          exportTable: (table, columns, file) => this.askCaller({ type: 'export-table', table, columns, file }),
        });
      }
      case 'usage':
        return this.usage();
      case 'drain':
        this.progress.clear();
        return null;
    }
  }

  /** Aborts every request in flight and fails every open scan; later requests start afresh. */
  cancel(): void {
    this.abort.abort();
    for (const client of this.clients.values()) this.retiredUsage.push(...client.usage.models());
    this.clients = new Map();
    this.abort = LlmBridgeService.abortController();
    const cancelled = new SragError({ code: 'CANCELLED', message: 'cancelled; rows extracted so far are cached, so running the statement again resumes' });
    for (const scan of this.scans.values()) scan.fail(cancelled);
    this.scans.clear();
    this.progress.clear();
  }

  /** Every request in flight listens on the one signal; hundreds at once are expected. */
  private static abortController(): AbortController {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    return controller;
  }

  takeWrites(): PendingWrites {
    const schemas = this.unsavedSchemas;
    this.unsavedSchemas = [];
    return { cache: this.cache.takeUnsaved(), log: this.log.takeUnsaved(), schemas };
  }

  private client(concurrency: number): ModelClient {
    let client = this.clients.get(concurrency);
    if (!client) {
      client = new ModelClient({
        languageModel: this.languageModel,
        cache: this.cache,
        maxConcurrency: concurrency,
        retry: { maxRetries: this.settings.maxRetries },
        abortSignal: this.abort.signal,
        sleep: (milliseconds) => wait(milliseconds),
      });
      client.onRetry((notice) => this.progress.retry(notice));
      this.clients.set(concurrency, client);
    }
    return client;
  }

  private usage(): ModelUsage[] {
    const byModel = new Map<string, ModelUsage>();
    for (const usage of [...this.retiredUsage, ...[...this.clients.values()].flatMap((client) => client.usage.models())]) {
      const sum = byModel.get(usage.model) ?? { model: usage.model, calls: 0, cacheHits: 0, retries: 0, promptTokens: 0, completionTokens: 0 };
      sum.calls += usage.calls;
      sum.cacheHits += usage.cacheHits;
      sum.retries += usage.retries;
      sum.promptTokens += usage.promptTokens;
      sum.completionTokens += usage.completionTokens;
      byModel.set(usage.model, sum);
    }
    return [...byModel.values()].sort((left, right) => left.model.localeCompare(right.model));
  }

  private rememberSchema(schema: RecordSchema, schemaKey: string): void {
    if (this.extractSchemas.has(schemaKey)) return;
    const schemaJson = JSON.stringify(recordSchemaToJsonSchema(schema));
    this.extractSchemas.set(schemaKey, schemaJson);
    this.unsavedSchemas.push({ schemaKey, title: schema.title, schemaJson });
  }

  private extractor(schema: RecordSchema, settings: ExtractionSettings, logTable: string | undefined) {
    const concurrency = settings.concurrency ?? this.settings.concurrency;
    const client = this.client(concurrency);
    return {
      concurrency,
      extract: async (documents: Parameters<typeof extractDocuments>[0]['documents']) => extractDocuments({
        client,
        prompts: this.prompts,
        schema,
        documents,
        maxInputTokens: this.settings.maxInputTokens,
        countTokens: await this.countTokens,
        model: settings.model ?? this.settings.extractModel,
        previousFailure: logTable && !settings.retryFailed ? (source, hash) => this.log.previousFailure(logTable, source, hash) : undefined,
      }),
    };
  }

  private startScan(schema: RecordSchema, schemaKey: string, documents: string[], settings: ExtractionSettings): number {
    this.rememberSchema(schema, schemaKey);
    const { concurrency, extract } = this.extractor(schema, settings, schemaKey);
    let completed = 0;
    let failed = 0;
    this.progress.start(documents.length);
    const scan = new ExtractionScan({
      documents,
      concurrency,
      batchSize: settings.batchSize,
      onError: settings.onError,
      read: (path) => ({ source: path, read: () => readDocumentFile(path) }),
      extract,
      onDocument: (extraction) => {
        completed += 1;
        if (extraction.error !== null) failed += 1;
        this.progress.update(completed, failed);
        if (extraction.skipped || !extraction.contentHash) return;
        this.log.record({
          tableName: schemaKey, source: extraction.source, contentHash: extraction.contentHash,
          status: extraction.error === null ? 'done' : 'failed', error: extraction.error,
        });
      },
    });
    const scanId = this.nextScanId;
    this.nextScanId += 1;
    this.scans.set(scanId, scan);
    return scanId;
  }

  /** The scalar form: a chunk of texts, all extracted (concurrently) before the callback is released. */
  private async extractTexts(schema: RecordSchema, documents: Array<{ name: string; content: string }>, settings: ExtractionSettings): Promise<ExtractedRow[]> {
    const { concurrency, extract } = this.extractor(schema, settings, undefined);
    const limit = pLimit(concurrency);
    let completed = 0;
    let failed = 0;
    this.progress.start(documents.length);
    const extractions = await Promise.all(documents.map((document) => limit(async () => {
      const [extraction] = await extract([{ source: document.name, read: async () => document.content }]);
      completed += 1;
      if (extraction!.error !== null) failed += 1;
      this.progress.update(completed, failed);
      return extraction!;
    })));
    this.progress.clear();
    return extractions.map((extraction) => ({ filename: extraction.source, contentHash: extraction.contentHash, values: extraction.values, error: extraction.error }));
  }

}

/** Texts whose counts are kept; the extraction instructions recur for every document of a scan. */
const rememberedCounts = 32;

/**
 * Counting o200k tokens is the largest share of srag's own time per document, and the
 * instructions (schema included) are counted again for every document: keep the last few counts.
 */
function rememberCounts(countTokens: (text: string) => number): (text: string) => number {
  const counts = new Map<string, number>();
  return (text) => {
    let count = counts.get(text);
    if (count === undefined) {
      count = countTokens(text);
      if (counts.size >= rememberedCounts) counts.delete(counts.keys().next().value!);
      counts.set(text, count);
    }
    return count;
  };
}
