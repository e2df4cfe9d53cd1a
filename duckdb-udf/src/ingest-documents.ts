import {
  runExtraction, runSynthesizedExtraction, SpendBudget, type DocumentSource, type ModelPrice, type RecordSchema, type RetryNotice, type RunProgress, type RunSummary,
  type SynthesisReport,
} from '../../core/index.ts';
import { hashText } from './hash-text.ts';
import type { Session } from './open-session.ts';
import { adoptRelativeSources } from './store/adopt-relative-sources.ts';

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
  cancellation?: { readonly aborted: boolean };
  /**
   * `--synthesize`: the model writes an extraction function per attribute, checked on held-out
   * documents, and code reads what those accepted can (see `runSynthesizedExtraction`).
   * `onFallback` hears of each document where an accepted function failed and the model read the value.
   */
  synthesize?: { onFallback?: (fallback: { document: string; attribute: string; reason: string }) => void };
}

export interface IngestDocumentsResult {
  summary: RunSummary;
  /** With `synthesize`: which extractors were used, and how many values code read. */
  synthesis?: SynthesisReport;
  usage: { calls: number; cacheHits: number; retries: number; promptTokens: number; cachedPromptTokens: number; completionTokens: number };
}

/**
 * One record per document into `table` of the session's store (created for `schema`, or checked
 * against it): what `srag ingest` and `srag serve`'s ingest jobs both run. The ingestion log makes
 * a second run over the same documents resume: unchanged documents cost nothing.
 */
export async function ingestDocuments(session: Session, options: IngestDocumentsOptions): Promise<IngestDocumentsResult> {
  const { documents, schema, table } = options;
  await session.store.registerTable(table, schema);
  const leftRelative = await adoptRelativeSources(session.store, table, documents);
  if (leftRelative > 0) options.onLeftRelative?.(leftRelative);
  const store = session.store.extractionStore(table, schema);
  const client = session.modelClient({ cache: store.responseCache });
  const stopRetryNotices = options.onRetry ? client.onRetry(options.onRetry) : () => {};
  try {
    const runOptions = {
      client,
      prompts: session.prompts,
      schema,
      documents,
      store,
      retryFailed: options.retryFailed,
      retryHint: options.retryHint,
      withEvidence: options.withEvidence,
      batchSize: options.batchSize,
      budget: options.maxCost && new SpendBudget(options.maxCost.usd, options.maxCost.price, () => client.usage.total()),
      maxInputTokens: session.settings.maxInputTokens,
      loadTokenCounter: session.loadTokenCounter,
      model: session.settings.extractModel,
      concurrency: session.settings.concurrency * 2,
      callWarningThreshold: session.settings.callWarningThreshold,
      hashText,
      onProgress: options.onProgress,
      onWarning: options.onWarning,
      cancellation: options.cancellation,
    };
    if (!options.synthesize) return { summary: await runExtraction(runOptions), usage: client.usage.total() };
    // QuickJS loads in the sandbox's worker, on the first call: nothing of it for a run without --synthesize.
    const { QuickJsCodeSandbox } = await import('./code-sandbox/quickjs-code-sandbox.ts');
    const sandbox = new QuickJsCodeSandbox();
    try {
      const { summary, synthesis } = await runSynthesizedExtraction({
        ...runOptions,
        synthesis: { sandbox, extractorStore: session.store.extractorStore(table), onFallback: options.synthesize.onFallback },
      });
      return { summary, synthesis, usage: client.usage.total() };
    } finally {
      await sandbox.close();
    }
  } finally {
    stopRetryNotices();
  }
}
