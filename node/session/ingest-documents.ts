import {
  addRunSummary, countNoun, DeferringLanguageModel, emptyRunSummary, ModelClient, runExtraction, runSynthesizedExtraction, SpendBudget, type DocumentSource, type ModelPrice,
  type RecordSchema, type RetryNotice, type RunProgress, type RunSummary, type SynthesisReport,
} from '../../core/index.ts';
import { collectOpenBatches, type OpenBatchesState } from './batch-api/collect-open-batches.ts';
import { submitBatchRequests } from './batch-api/submit-batch-requests.ts';
import { endpointBatchApi } from '../runtime/endpoint-batch-api.ts';
import { documentAtPath } from '../runtime/document-at-path.ts';
import { hashText } from '../runtime/hash-text.ts';
import { BatchJobs, type SubmittedRunOptions } from '../duckdb/store/batch-jobs.ts';
import type { Session } from './open-session.ts';
import { adoptRelativeSources } from '../duckdb/store/adopt-relative-sources.ts';
import { followingMovedDocuments, pruneDocuments, type MovedDocuments } from '../duckdb/store/moved-documents.ts';
import type { SchemaChange } from '../duckdb/store/compare-schemas.ts';

export interface IngestDocumentsOptions {
  documents: DocumentSource[];
  schema: RecordSchema;
  table: string;
  retryFailed?: boolean;
  /** How a surface says to retry failed documents ("rerun with --retry-failed"). */
  retryHint: string;
  withEvidence: boolean;
  /** The most documents per model call; `'auto'` (the default) lets short documents share a call, 1 sends each alone. */
  batchSize?: number | 'auto';
  /** Stop before a group of documents whose estimated cost would take the run's spend past this many US dollars at `price`. */
  maxCost?: { usd: number; price: ModelPrice };
  onProgress?: (progress: RunProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
  onWarning?: (line: string) => void;
  /** Called before extraction when documents of the table were logged by an earlier srag by a path relative to another directory. */
  onLeftRelative?: (count: number) => void;
  /**
   * After the run, remove the records of the table's documents whose files are gone (not found at
   * their paths, and not moved to one of `documents`); without it they stay, and the result names them.
   */
  prune?: boolean;
  /** Called when the table existed with another schema: what it gains, re-extracts and keeps (see `SragStore.registerTable`). */
  onSchemaChange?: (change: SchemaChange) => void;
  cancellation?: { readonly aborted: boolean };
  /**
   * `--synthesize`: the model writes an extraction function per attribute, checked on held-out
   * documents, and code reads what those accepted can (see `runSynthesizedExtraction`).
   * `onFallback` hears of each document where an accepted function failed and the model read the value.
   */
  synthesize?: { onFallback?: (fallback: { document: string; attribute: string; reason: string }) => void };
  /**
   * `--batch-api`: the run's model requests go to the provider's Batch API as one submission
   * instead of being sent (see `DeferringLanguageModel`); their documents end `deferred`, and a
   * later run collects the replies. Without it, finished batches are still collected, and
   * documents waiting for a batch are still left out.
   */
  batchApi?: boolean;
  /** One line per batch asked about, collected or submitted. */
  onBatchLine?: (line: string) => void;
}

/** What a run did with the Batch API. */
export interface BatchReport {
  /** Batches submitted by this run (one submission), with how many requests and documents. */
  submitted: string[];
  requests: number;
  /** Documents whose requests this run submitted. */
  deferredDocuments: number;
  /** Documents left out because a batch still works on them. */
  waitingDocuments: number;
  /** Batches still out before this run's submission. */
  open: OpenBatchesState['open'];
  collected: OpenBatchesState['collected'];
}

export interface IngestDocumentsResult {
  summary: RunSummary;
  /** With `synthesize`: which extractors were used, and how many values code read. */
  synthesis?: SynthesisReport;
  usage: { calls: number; cacheHits: number; retries: number; promptTokens: number; cachedPromptTokens: number; completionTokens: number; reasoningTokens: number; callsWithoutUsage: number };
  /** Present when a batch was asked about, collected or submitted. */
  batch?: BatchReport;
  /** Present when records followed their moved documents, or documents of the table are gone from their paths. */
  movedDocuments?: MovedDocuments;
}

/**
 * One record per document into `table` of the session's store (created for `schema`, or checked
 * against it): the run of the ingest use case (see `ingest`, which checks its options first). The
 * ingestion log makes a second run over the same documents resume: unchanged documents cost nothing.
 */
export async function ingestDocuments(session: Session, options: IngestDocumentsOptions): Promise<IngestDocumentsResult> {
  const { documents, table } = options;
  // The table's schema: the given one, plus attributes the table keeps that it does not name.
  const change = await session.store.registerTable(table, options.schema);
  const { schema } = change;
  if (change.added.length || change.changed.length || change.kept.length) options.onSchemaChange?.(change);
  const leftRelative = await adoptRelativeSources(session.store, table, documents);
  if (leftRelative > 0) options.onLeftRelative?.(leftRelative);
  const store = session.store.extractionStore(table, schema);
  const signal = abortSignalOf(options.cancellation);
  const batchJobs = new BatchJobs(session.store);
  let batchApi: ReturnType<typeof endpointBatchApi> | undefined;
  const openBatchApi = () => (batchApi ??= endpointBatchApi(session.settings, session.adaptations));
  const batches = await collectOpenBatches({
    table, batchJobs, batchApi: openBatchApi, client: session.modelClient({ cache: store.responseCache }), onLine: options.onBatchLine, signal,
  });
  // A finished submission's run is made again first, on its own and in its order, so that it sends the
  // requests the batch answered (see BatchJobs.recordSubmission); documents a batch still works on are
  // not sent again, by any run.
  const runs: Array<{ documents: DocumentSource[]; options: SubmittedRunOptions; submission?: string }> = [];
  const inSubmissions = new Set<string>();
  const finished = await batchJobs.finishedSubmissions(table);
  // By source, only when a submission needs them: a map of 100,000 documents held for the whole run otherwise.
  const given = finished.length > 0 ? new Map(documents.map((document) => [document.source, document])) : new Map<string, DocumentSource>();
  for (const { submission, sources, options: submittedWith } of finished) {
    runs.push({ submission, options: submittedWith, documents: sources.map((source) => given.get(source) ?? documentAtPath(source)) });
    for (const source of sources) inSubmissions.add(source);
  }
  const rest = documents.filter((document) => !batches.waiting.has(document.source) && !inSubmissions.has(document.source));
  // A moved or renamed file keeps its record (see followingMovedDocuments).
  const restStore = await followingMovedDocuments(session.store, store, { table, documents: rest });
  runs.push({ documents: rest, options: { retryFailed: options.retryFailed ?? false, batchSize: options.batchSize, withEvidence: options.withEvidence } });
  let deferring: DeferringLanguageModel | undefined;
  let client: ModelClient;
  if (options.batchApi) {
    openBatchApi();
    client = session.modelClient({
      cache: store.responseCache,
      languageModel: (endpoint) => (deferring = new DeferringLanguageModel({
        languageModel: endpoint,
        keyOf: (request) => client.cacheKey(request),
        // A line a finished batch did not answer goes the ordinary way, so a request the Batch API keeps failing still ends.
        defer: (key) => !batches.failedKeys.has(key),
      })),
    });
  } else {
    client = session.modelClient({ cache: store.responseCache });
  }
  const stopRetryNotices = options.onRetry ? client.onRetry(options.onRetry) : () => {};
  const runOptions = {
    client,
    prompts: session.prompts,
    schema,
    store,
    retryHint: options.retryHint,
    // One budget for every run of the ingest; a group deferred to the Batch API keeps its reservation (it is billed when the batch runs).
    budget: options.maxCost && new SpendBudget(options.maxCost.usd, options.maxCost.price, () => client.usage.total()),
    maxInputTokens: session.settings.maxInputTokens,
    loadTokenCounter: session.loadTokenCounter,
    model: session.settings.extractModel,
    concurrency: session.settings.concurrency * 2,
    callWarningThreshold: session.settings.callWarningThreshold,
    hashText,
    onWarning: options.onWarning,
    cancellation: options.cancellation,
  };
  const total = runs.reduce((sum, run) => sum + run.documents.length, 0);
  const summary = emptyRunSummary(0);
  const submitted: string[] = [];
  let requestCount = 0;
  let synthesis: SynthesisReport | undefined;
  let completedBefore = 0;
  let moveFailure: unknown;
  try {
    for (const run of runs) {
      if (run.documents.length === 0 && run.submission === undefined) continue;
      const deferred = new Set<string>();
      const offset = completedBefore;
      const onProgress = (progress: RunProgress) => {
        if (progress.outcome === 'deferred') deferred.add(progress.documentSource);
        options.onProgress?.({ ...progress, completed: offset + progress.completed, total });
      };
      const withDocuments = { ...runOptions, ...run.options, documents: run.documents, onProgress, ...(run.documents === rest ? { store: restStore } : {}) };
      let runSummary: RunSummary;
      if (options.synthesize && run.submission === undefined) {
        // QuickJS loads in the sandbox's worker, on the first call: nothing of it for a run without --synthesize.
        const { QuickJsCodeSandbox } = await import('../runtime/code-sandbox/quickjs-code-sandbox.ts');
        const sandbox = new QuickJsCodeSandbox();
        try {
          const synthesized = await runSynthesizedExtraction({
            ...withDocuments,
            synthesis: { sandbox, extractorStore: session.store.extractorStore(table), onFallback: options.synthesize.onFallback },
          });
          runSummary = synthesized.summary;
          synthesis = synthesized.synthesis;
        } finally {
          await sandbox.close();
        }
      } else {
        runSummary = await runExtraction(withDocuments);
      }
      addRunSummary(summary, runSummary);
      completedBefore += run.documents.length;
      const requests = deferring?.take() ?? [];
      if (requests.length > 0) {
        const ids = await submitBatchRequests({
          table, requests, run: { sources: run.documents.map((document) => document.source), waiting: deferred, options: run.options },
          replaces: run.submission, batchJobs, batchApi: openBatchApi(), signal,
        });
        submitted.push(...ids);
        requestCount += requests.length;
        options.onBatchLine?.(`submitted batch ${ids.join(', ')}: ${countNoun(requests.length, 'request')} for ${countNoun(deferred.size, 'document')}, answered within 24 hours at about half the price`);
      } else if (run.submission !== undefined && !runSummary.budgetReached) {
        await batchJobs.release(run.submission);
      }
      // Stopped at --max-cost: the runs after it would stop at once.
      if (runSummary.budgetReached) break;
    }
  } finally {
    stopRetryNotices();
    // Every move is committed before the ingest ends, however it ends.
    await restStore.settled().catch((error: unknown) => {
      moveFailure = error;
    });
  }
  if (moveFailure !== undefined) throw moveFailure;
  const gone = restStore.gone();
  // Pruning also removes the log entries of gone documents that failed or were empty.
  const pruning = options.prune === true ? [...gone, ...restStore.goneWithoutRecord()] : [];
  const pruned = pruning.length > 0;
  if (pruned) await pruneDocuments(session.store, { table, schema, sources: pruning });
  const movedDocuments = restStore.moved.length > 0 || gone.length > 0 ? { movedDocuments: { moved: restStore.moved, gone, pruned } } : {};
  const waitingDocuments = documents.filter((document) => batches.waiting.has(document.source)).length;
  const batchReport = options.batchApi || waitingDocuments > 0 || batches.collected.batches > 0 || batches.open.length > 0
    ? { submitted, requests: requestCount, deferredDocuments: summary.deferred, waitingDocuments, open: batches.open, collected: batches.collected }
    : undefined;
  return { summary, usage: client.usage.total(), batch: batchReport, ...movedDocuments, ...(synthesis ? { synthesis } : {}) };
}

/** The cancellation as the wire's signal, when it is one (the CLI's AbortSignal). */
function abortSignalOf(cancellation: { readonly aborted: boolean } | undefined): AbortSignal | undefined {
  return cancellation instanceof AbortSignal ? cancellation : undefined;
}
