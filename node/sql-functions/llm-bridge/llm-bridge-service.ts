import { writeSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import {
  ModelClient, recordSchemaToJsonSchema, SragError, startExtractionRun,
  UsageTotals, type DocumentOutcome, type DocumentSource, type ExtractionRun, type LanguageModel, type ModelUsage, type PromptLibrary, type RecordSchema,
} from '../../../core/index.ts';
import { describeMovedDocuments } from '../../session/describe-moved-documents.ts';
import { hashText, hashTexts } from '../../runtime/hash-text.ts';
import { loadPromptLibrary } from '../../runtime/load-prompt-library.ts';
import { readDocumentFile } from '../../runtime/read-document-file.ts';
import { readSettings, type SragSettings } from '../../runtime/read-settings.ts';
import { loadModelPrices } from '../../runtime/load-model-prices.ts';
import { sharedAbortController } from '../../runtime/shared-abort-controller.ts';
import { nodeDocumentFiles } from '../../runtime/node-document-files.ts';
import type { BridgeRequest, CallerRequest, ExtractedRow, ExtractionSettings, OnError, ScanDocument } from './bridge-protocol.ts';
import { BridgeStore } from './bridge-store.ts';
import { IngestionLogCopy, wholeLogBytes } from './ingestion-log-copy.ts';
import type { JournalChannel } from './journal-channel.ts';
import { JournaledResponseCache } from './journaled-response-cache.ts';
import { listScanDocuments } from './list-scan-documents.ts';
import { ProgressLine } from './progress-line.ts';

/**
 * Lists of documents kept for scans bound and not started yet (a million files are ~200 MB): an
 * older one is listed again if its scan starts. A statement's end lets go of those it left.
 */
const listsKept = 2;

/** Extraction replies of this session kept at hand (a batch split re-reads its halves' replies). */
const extractionRepliesKept = 1_000;

/**
 * Documents of a scan run at a time (see `Scan`): what the bridge holds per document — its log
 * entry read from the database, the one it writes — is held for these only. Between two runs the
 * model slots empty once, as at a scan's end: one round of calls (at concurrency 64 and ten pages
 * a call, 640 pages) among the ~80 of a run.
 */
const defaultDocumentsPerScanRun = 50_000;

/**
 * A `srag_extract` scan: a run over `documentsPerScanRun` (default 50,000) of its documents at a
 * time, one after another in document order; a run reads the log entries of its documents when it
 * starts, and they are let go of when it is done (`IngestionLogCopy.forget`).
 */
interface Scan {
  schema: RecordSchema;
  settings: ExtractionSettings;
  documents: ScanDocument[];
  store: BridgeStore;
  /** The documents before the current run's first. */
  runStart: number;
  run: ExtractionRun;
  onError: OnError;
  /** Outcomes taken from the run but not yet returned (an `on_error := 'fail'` scan stops before a failed one). */
  held: DocumentOutcome[];
  runDone: boolean;
}

/**
 * Everything asynchronous behind the SQL functions, run on the bridge worker: model clients (one
 * per concurrency a scan asks for, sharing the cache and the endpoint), extraction runs, questions,
 * and the copy of each `srag_extract` schema's ingestion log (read for the documents runs name).
 * Each request maps to one core call; this class only keeps the state those calls share across
 * DuckDB callbacks.
 */
export class LlmBridgeService {
  private readonly settings: SragSettings;
  private readonly prompts: PromptLibrary = loadPromptLibrary();
  private readonly languageModel: LanguageModel;
  private readonly progress: ProgressLine;
  private readonly journal: JournalChannel;
  private readonly extractionCache: JournaledResponseCache;
  private readonly askCache: JournaledResponseCache;
  /** Per `srag_extract` schema key: the latest log entry (with values when done) per document. */
  private readonly logs = new Map<string, IngestionLogCopy>();
  /** The `srag_extract` schemas the database held when it opened: their logs are read from it. */
  private storedSchemaKeys = new Set<string>();
  /** The title of each schema a store was made for, to name it in lines about its records. */
  private readonly titles = new Map<string, string>();
  /** Schemas srag_extract was called with in this session (key → JSON Schema text), for `srag_ask`. */
  private readonly extractSchemas = new Map<string, string>();
  private abort = sharedAbortController();
  private clients = new Map<number, ModelClient>();
  /** Usage of clients retired by a cancel, still part of the session's totals. */
  private readonly retiredUsage: ModelUsage[] = [];
  private readonly scans = new Map<number, Scan>();
  private nextScanId = 1;
  /** The documents `list-scan` listed, until a `start-scan` takes them (see `ScanListing`). */
  private readonly lists = new Map<number, ScanDocument[]>();
  private nextListId = 1;
  private tokenCounter: Promise<(text: string) => number> | undefined;

  private readonly askCaller: (request: CallerRequest) => Promise<void>;

  private readonly documentsPerScanRun: number;

  constructor({ environment, progress, journal, askCaller, documentsPerScanRun = defaultDocumentsPerScanRun }: {
    environment: Record<string, string | undefined>;
    progress: boolean;
    journal: JournalChannel;
    /** Documents of a scan run at a time (see `Scan`). */
    documentsPerScanRun?: number;
    /** Work only the thread blocked in the current DuckDB callback can do (see `CallerRequest`). */
    askCaller: (request: CallerRequest) => Promise<void>;
  }) {
    this.settings = readSettings(environment);
    this.documentsPerScanRun = documentsPerScanRun;
    this.journal = journal;
    this.askCaller = askCaller;
    this.extractionCache = new JournaledResponseCache(journal, 'extraction', extractionRepliesKept);
    this.askCache = new JournaledResponseCache(journal, null);
    // A scan answered wholly from the store needs no endpoint: the missing-endpoint error waits for
    // a real call, and so does loading the OpenAI-compatible wire.
    let endpoint: Promise<LanguageModel> | undefined;
    this.languageModel = {
      modelId: this.settings.model,
      endpoint: this.settings.endpoint,
      doGenerate: async (request) => {
        endpoint ??= import('../../runtime/endpoint-language-model.ts').then(({ endpointLanguageModel }) => endpointLanguageModel(this.settings));
        return (await endpoint).doGenerate(request);
      },
    };
    this.progress = new ProgressLine(progress ? undefined : false);
  }

  async handle(request: BridgeRequest): Promise<unknown> {
    switch (request.type) {
      case 'load':
        this.storedSchemaKeys = new Set(request.start.schemaKeys);
        this.askCache.load(request.start.cache);
        return null;
      case 'list-scan': {
        const documents = listScanDocuments(request.patterns, request.named, request.followLinks);
        const listId = this.nextListId++;
        this.lists.set(listId, documents);
        // A bound statement that never runs leaves its list: only the latest few are kept.
        for (const kept of this.lists.keys()) if (this.lists.size > listsKept) this.lists.delete(kept);
        return { listId, count: documents.length };
      }
      case 'start-scan': {
        const { listing } = request;
        let documents: ScanDocument[];
        if ('documents' in listing) documents = listing.documents;
        else {
          // A list is used once: a scan run again (a prepared statement, a plan that scans twice) lists afresh.
          documents = this.lists.get(listing.listId) ?? listScanDocuments(listing.patterns, listing.named, listing.followLinks);
          this.lists.delete(listing.listId);
        }
        return { scanId: await this.startScan(request.schema, request.schemaKey, documents, request.settings) };
      }
      case 'next-rows': {
        const scan = this.scans.get(request.scanId);
        if (!scan) throw new SragError({ code: 'CANCELLED', message: 'srag_extract: the scan was cancelled' });
        const next = await this.nextRows(scan, request.maximum);
        if (next.done) {
          this.scans.delete(request.scanId);
          this.progress.clear();
        }
        return next;
      }
      case 'extract-texts':
        return { rows: await this.extractTexts(request.schema, request.schemaKey, request.documents, request.settings) };
      case 'ask': {
        // A schema recorded in this session may not be applied yet; the table's own SQL cannot see it.
        const snapshot = request.request.snapshot;
        const known = new Set(snapshot.knownSchemas.filter((schema) => schema.origin === 'srag_extract').map((schema) => schema.name));
        const knownSchemas = [...snapshot.knownSchemas];
        for (const [name, schemaJson] of this.extractSchemas) {
          if (!known.has(name)) knownSchemas.push({ name, schemaJson, statisticsJson: null, origin: 'srag_extract' });
        }
        // Loaded on the first question: it brings DuckDB (the sandbox) into this worker, which extraction never needs.
        const { answerAskRequest } = await import('./answer-ask-request.ts');
        const client = this.client(this.settings.concurrency, 'ask');
        let failed = 0;
        try {
          return await answerAskRequest({
            request: { ...request.request, snapshot: { ...snapshot, knownSchemas } },
            client, prompts: this.prompts, model: this.settings.model,
            exporter: {
              exportTable: (table, columns, file) => this.askCaller({ type: 'export-table', table, columns, file }),
              exportEvidence: (evidence, attributes, file) => this.askCaller({ type: 'export-evidence', table: evidence.name, attributes, file, ...(evidence.copyOf ? { copy: evidence.copyOf } : {}) }),
            },
            growth: {
              journal: this.journal, cache: this.extractionCache,
              runtime: {
                client, prompts: this.prompts, model: this.settings.model,
                extractionClient: () => this.client(this.settings.concurrency * 2, 'extraction'),
                extractModel: this.settings.extractModel, concurrency: this.settings.concurrency * 2,
                maxInputTokens: this.settings.maxInputTokens, callWarningThreshold: this.settings.callWarningThreshold,
                // No one to ask in SQL: a back-fill goes ahead, its estimate in `schema_extension`.
                confirmDocuments: Number.POSITIVE_INFINITY,
                documents: nodeDocumentFiles, loadPrices: () => loadModelPrices(), loadTokenCounter: () => this.loadTokenCounter(), hashText,
              },
              onStart: (documents) => this.progress.start(documents),
            },
            onWarning: (line) => {
              this.progress.clear();
              writeLine(`srag_ask: warning: ${line}`);
            },
            onProgress: (progress) => {
              if (progress.outcome === 'failed' || progress.outcome === 'stale') failed += 1;
              this.progress.update(progress.completed, failed);
            },
            cancellation: this.abort.signal,
          });
        } finally {
          this.progress.clear();
        }
      }
      case 'usage':
        return this.usage();
      case 'drain':
        // Left by statements bound and not run (or prepared, to run later: listed again then).
        this.lists.clear();
        await this.journal.idle();
        this.progress.clear();
        this.reportMoved();
        return null;
    }
  }

  /** Aborts every request in flight and fails every open scan; later requests start afresh. */
  cancel(): void {
    this.abort.abort();
    for (const client of this.clients.values()) this.retiredUsage.push(...client.usage.models());
    this.clients = new Map();
    this.abort = sharedAbortController();
    const cancelled = new SragError({ code: 'CANCELLED', message: 'cancelled; rows extracted so far are saved, so running the statement again resumes' });
    for (const scan of this.scans.values()) scan.run.stop(cancelled);
    this.scans.clear();
    this.progress.clear();
  }

  /** Extraction clients are keyed by concurrency; the question client (key 0) reads the copied cache. */
  private client(concurrency: number, purpose: 'extraction' | 'ask'): ModelClient {
    const key = purpose === 'ask' ? 0 : concurrency;
    let client = this.clients.get(key);
    if (!client) {
      client = new ModelClient({
        languageModel: this.languageModel,
        cache: purpose === 'ask' ? this.askCache : this.extractionCache,
        maxConcurrency: concurrency,
        retry: { maxRetries: this.settings.maxRetries },
        abortSignal: this.abort.signal,
        sleep: (milliseconds) => wait(milliseconds),
        hashText,
        hashTexts,
      });
      client.onRetry((notice) => this.progress.retry(notice));
      this.clients.set(key, client);
    }
    return client;
  }

  private usage(): ModelUsage[] {
    const totals = new UsageTotals();
    for (const usage of [...this.retiredUsage, ...[...this.clients.values()].flatMap((client) => client.usage.models())]) totals.add(usage);
    return totals.models().sort((left, right) => left.model.localeCompare(right.model));
  }

  /** The store for one schema, registering the schema (and its record table) the first time. */
  private async storeFor(schema: RecordSchema, schemaKey: string): Promise<BridgeStore> {
    this.titles.set(schemaKey, schema.title);
    let log = this.logs.get(schemaKey);
    if (!log && this.storedSchemaKeys.has(schemaKey)) {
      log = new IngestionLogCopy(
        (sources) => this.readExport((file) => ({ type: 'export-log', schemaKey, sources: sources && [...sources], file }), sources === null ? wholeLogBytes : Number.POSITIVE_INFINITY),
        async (sources) => (await this.readExport((file) => ({ type: 'export-log-outside', schemaKey, sources: [...sources], file })))!,
      );
      this.logs.set(schemaKey, log);
    } else if (!log) {
      const schemaJson = JSON.stringify(recordSchemaToJsonSchema(schema));
      await this.journal.write([{ kind: 'schema', schemaKey, title: schema.title, schemaJson }]);
      this.extractSchemas.set(schemaKey, schemaJson);
      log = new IngestionLogCopy();
      this.logs.set(schemaKey, log);
    }
    return new BridgeStore(this.journal, schemaKey, log, this.extractionCache);
  }

  /**
   * The JSON lines of an export the blocked DuckDB thread writes to a file (`export-log`,
   * `export-log-outside`: see `CallerRequest`); undefined when the file is more than `maxBytes`.
   */
  private async readExport(request: (file: string) => CallerRequest, maxBytes = Number.POSITIVE_INFINITY): Promise<string[] | undefined> {
    const directory = await mkdtemp(join(tmpdir(), 'srag-log-'));
    try {
      const file = join(directory, 'log.json');
      await this.askCaller(request(file));
      if (maxBytes < Number.POSITIVE_INFINITY && (await stat(file)).size > maxBytes) return undefined;
      return (await readFile(file, 'utf8')).split('\n');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /**
   * A run over `documents` with `store` (see `storeFor`). The stored entries are read now, while the
   * DuckDB thread waits in the call that starts the run: only a blocked call can export them (the
   * run's own read then finds them at hand); so are the gone documents whose records a moved one
   * among them can take over (looked for once a statement). `completedBefore` documents of the
   * statement's scan were done by runs before this one (for the progress line).
   */
  private async startRun(schema: RecordSchema, store: BridgeStore, documents: DocumentSource[], settings: ExtractionSettings, { lookahead, completedBefore = 0 }: { lookahead?: number; completedBefore?: number } = {}): Promise<ExtractionRun> {
    const concurrency = settings.concurrency ?? this.settings.concurrency;
    let failed = 0;
    const sources = documents.map((document) => document.source);
    await store.logEntries(sources);
    await store.lookForMoved(sources);
    return startExtractionRun({
      client: this.client(concurrency, 'extraction'),
      prompts: this.prompts,
      schema,
      documents,
      store,
      retryFailed: settings.retryFailed,
      retryHint: 'add retry_failed := true',
      maxInputTokens: this.settings.maxInputTokens,
      loadTokenCounter: () => this.loadTokenCounter(),
      model: settings.model ?? this.settings.extractModel,
      concurrency,
      batchSize: settings.batchSize,
      lookahead,
      callWarningThreshold: this.settings.callWarningThreshold,
      hashText,
      onProgress: (progress) => {
        if (progress.outcome === 'failed') failed += 1;
        this.progress.update(completedBefore + progress.completed, failed);
      },
      onWarning: (line) => {
        this.progress.clear();
        writeLine(`srag_extract: warning: ${line}`);
      },
      cancellation: this.abort.signal,
      yieldTurn: () => new Promise<void>((resolve) => setImmediate(resolve)),
    });
  }

  /** At a statement's end: which records followed their documents to new paths during it, a line per schema. */
  private reportMoved(): void {
    for (const [schemaKey, log] of this.logs) {
      const moved = log.endStatement();
      if (moved.length === 0) continue;
      this.progress.clear();
      for (const line of describeMovedDocuments(this.titles.get(schemaKey) ?? schemaKey, { moved, gone: [], pruned: false }, { removeHint: '' })) writeLine(`srag_extract: ${line}`);
    }
  }

  private async startScan(schema: RecordSchema, schemaKey: string, documents: ScanDocument[], settings: ExtractionSettings): Promise<number> {
    const store = await this.storeFor(schema, schemaKey);
    this.progress.start(documents.length);
    const run = await this.startScanRun(schema, store, documents, 0, settings);
    const scanId = this.nextScanId;
    this.nextScanId += 1;
    this.scans.set(scanId, { schema, settings, documents, store, runStart: 0, run, onError: settings.onError, held: [], runDone: false });
    return scanId;
  }

  /** The run over the scan's documents from `start` (see `Scan`). */
  private startScanRun(schema: RecordSchema, store: BridgeStore, documents: ScanDocument[], start: number, settings: ExtractionSettings): Promise<ExtractionRun> {
    const files = documents.slice(start, start + this.documentsPerScanRun).map((document) => new ScanFile(document, this.settings.documentReading));
    return this.startRun(schema, store, files, settings, { completedBefore: start });
  }

  /** Once a run of `scan` is done: its documents' entries are let go of, and the next run starts; false when it was the last. */
  private async nextScanRun(scan: Scan): Promise<boolean> {
    const next = scan.runStart + this.documentsPerScanRun;
    if (next >= scan.documents.length) return false;
    scan.store.forget(scan.documents.slice(scan.runStart, next).map((document) => document.source));
    scan.runStart = next;
    scan.run = await this.startScanRun(scan.schema, scan.store, scan.documents, next, scan.settings);
    return true;
  }

  /**
   * The next rows of a scan, in document order. With `on_error := 'fail'`, the rows before a
   * failed document are returned first, and the next call fails naming it.
   */
  private async nextRows(scan: Scan, maximum: number): Promise<{ rows: ExtractedRow[]; done: boolean }> {
    if (scan.held.length === 0 && !scan.runDone) {
      const next = await scan.run.next(maximum);
      scan.held = next.outcomes;
      scan.runDone = next.done && !(await this.nextScanRun(scan));
    }
    let taken = 0;
    const rows: ExtractedRow[] = [];
    while (taken < scan.held.length && rows.length < maximum) {
      const outcome = scan.held[taken]!;
      if (outcome.error !== null && scan.onError === 'fail') {
        if (rows.length > 0) break;
        throw new SragError({ code: outcome.errorCode ?? 'LLM_REQUEST_FAILED', message: `srag_extract: ${outcome.label}: ${outcome.error}`, hint: "use on_error := 'capture' to get the error in the _error column instead" });
      }
      rows.push(toRow(outcome, scan.onError));
      taken += 1;
    }
    scan.held = scan.held.slice(taken);
    return { rows, done: scan.runDone && scan.held.length === 0 };
  }

  /** The scalar form: a chunk of texts, all extracted (concurrently) before the callback is released. */
  private async extractTexts(schema: RecordSchema, schemaKey: string, documents: Array<ScanDocument & { content: string }>, settings: ExtractionSettings): Promise<ExtractedRow[]> {
    const store = await this.storeFor(schema, schemaKey);
    this.progress.start(documents.length);
    const run = await this.startRun(schema, store, documents.map((document) => ({
      // A text without a file name is known by its content.
      source: document.source || `text:${hashText(document.content)}`,
      label: document.label,
      read: async () => document.content,
    })), settings, { lookahead: Number.POSITIVE_INFINITY });
    const rows: ExtractedRow[] = [];
    try {
      for (let next = await run.next(Number.POSITIVE_INFINITY); ; next = await run.next(Number.POSITIVE_INFINITY)) {
        rows.push(...next.outcomes.map((outcome) => toRow(outcome, settings.onError)));
        if (next.done) break;
      }
    } finally {
      this.progress.clear();
    }
    return rows;
  }

  private loadTokenCounter(): Promise<(text: string) => number> {
    // The same o200k counter `srag ingest` splits long documents with, so both send the same requests.
    this.tokenCounter ??= import('../../runtime/count-tokens.ts').then((module) => rememberCounts(module.countTokens));
    return this.tokenCounter;
  }
}

/**
 * A file a scan names, read when the run gets to it. A class, so that `read` is one function on its
 * prototype: a closure per document (with its context and the document it read from) held ~130
 * bytes each for the whole scan, 130 MB over a million files.
 */
class ScanFile implements DocumentSource {
  readonly source: string;
  readonly label: string;
  private readonly refusal: string | undefined;

  constructor(document: ScanDocument, private readonly limits: SragSettings['documentReading']) {
    this.source = document.source;
    this.label = document.label;
    this.refusal = document.refusal;
  }

  read(): Promise<string> {
    return this.refusal
      ? Promise.reject(new SragError({ code: 'DOCUMENT_UNREADABLE', message: this.refusal }))
      : readDocumentFile(this.source, { shownAs: this.label, blocking: true, limits: this.limits });
  }
}

function toRow(outcome: DocumentOutcome, onError: OnError): ExtractedRow {
  return {
    filename: outcome.label,
    contentHash: outcome.contentHash || null,
    values: outcome.status === 'done' || outcome.status === 'unchanged' ? outcome.values : null,
    error: onError === 'null' ? null : outcome.error,
  };
}

/** A line on stderr from this worker (the thread that runs DuckDB is blocked and cannot print). */
function writeLine(line: string): void {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // A closed terminal is no reason to fail a scan.
  }
}

/** Texts whose counts are kept; the extraction instructions recur for every document of a scan. */
const rememberedCounts = 32;

/**
 * Counting o200k tokens is the largest share of srag's own time per long document, and the
 * instructions (schema included) recur for every document: keep the last few counts.
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
