import { usageCost, type DocumentSource, type RecordSchema, type RetryNotice, type RunProgress } from '../../core/index.ts';
import type { SchemaChange } from '../duckdb/store/compare-schemas.ts';
import { batchSubmissionToResume } from './batch-submission-to-resume.ts';
import { estimateIngest } from './estimate-ingest.ts';
import { ingestDocuments } from './ingest-documents.ts';
import type { IngestOutcome, SynthesisFallback } from './ingest-outcome.ts';
import type { Session } from './open-session.ts';
import { checkIngestOptions } from './check-ingest-options.ts';

/** How an ingest runs: the same options on every surface (`srag ingest`'s flags, `POST /ingest`'s fields). */
export interface IngestOptions {
  /** Try documents again that failed in an earlier run with the same content. */
  retryFailed?: boolean;
  /** Ask for a quote per value and check it (default true). */
  evidence?: boolean;
  /** The most documents per model call; by default short documents share a call. */
  batchSize?: number;
  /** Remove the records of the table's documents whose files are gone from their paths. */
  prune?: boolean;
  /** The model writes an extractor per attribute, and code reads what the accepted ones can. */
  synthesize?: boolean;
  /** Send the requests through the provider's Batch API (about half the price, answered within 24 hours). */
  batchApi?: boolean;
  /** Stop before the run would spend more than this many US dollars (needs the model's price). */
  maxCostUsd?: number;
  /** Make no model call and write nothing: say what the run would send and cost. */
  dryRun?: boolean;
  /** How this surface says to retry failed documents, kept with each failure ("rerun with --retry-failed"). */
  retryHint: string;
}

/** The documents into a table; or, with `resumeBatch`, those of the table's Batch API submissions. */
export type IngestRequest = IngestOptions & (
  | { documents: DocumentSource[]; schema: RecordSchema; table: string; resumeBatch?: false }
  | { resumeBatch: true; table?: string }
);

/** What happens while the ingest runs, for a surface to show as it goes. */
export interface IngestListeners {
  /** The run starts: its table (the one resumed, with `resumeBatch`) and how many documents it goes over; never for a dry run. */
  onStart?: (run: { table: string; documents: number }) => void;
  onProgress?: (progress: RunProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
  onWarning?: (line: string) => void;
  onSchemaChange?: (change: SchemaChange) => void;
  /** Documents of the table logged by an earlier srag by a path relative to another directory. */
  onLeftRelative?: (count: number) => void;
  /** One line per batch asked about, collected or submitted. */
  onBatchLine?: (line: string) => void;
  cancellation?: { readonly aborted: boolean };
}

/** Documents named one by one where an accepted extractor failed; the rest are counted. */
const namedFallbacks = 5;

/**
 * The ingest use case, for every surface: one record per document into `table`, or a dry run's
 * estimate. It decides once what each surface offers: the model's price (built in or SRAG_PRICES;
 * the Batch API's with `batchApi`), refusing a spending limit without one, the budget, the Batch
 * API and its resume, synthesized extractors, moved and pruned documents, and the summary's
 * numbers. The result is data; the CLI and `srag serve` word it.
 */
export async function ingest(session: Session, request: IngestRequest, listeners: IngestListeners = {}): Promise<IngestOutcome> {
  const batchApi = request.batchApi === true || request.resumeBatch === true;
  const { price, runPrice } = checkIngestOptions(session.settings, { batchApi, synthesize: request.synthesize, maxCostUsd: request.maxCostUsd, dryRun: request.dryRun });
  const { documents, schema, table } = request.resumeBatch ? await batchSubmissionToResume(session, request.table) : request;
  const evidence = request.evidence ?? true;
  if (request.dryRun) {
    return estimateIngest(session, {
      documents, schema, table, runPrice,
      options: { evidence, retryFailed: request.retryFailed ?? false, batchSize: request.batchSize, batchApi, maxCostUsd: request.maxCostUsd, prune: request.prune ?? false },
    });
  }
  listeners.onStart?.({ table, documents: documents.length });
  const named: SynthesisFallback[] = [];
  let fallbackCount = 0;
  const result = await ingestDocuments(session, {
    documents,
    schema,
    table,
    retryFailed: request.retryFailed,
    retryHint: request.retryHint,
    withEvidence: evidence,
    batchSize: request.batchSize,
    maxCost: request.maxCostUsd !== undefined && runPrice ? { usd: request.maxCostUsd, price: runPrice } : undefined,
    prune: request.prune,
    batchApi,
    onProgress: listeners.onProgress,
    onRetry: listeners.onRetry,
    onWarning: listeners.onWarning,
    onSchemaChange: listeners.onSchemaChange,
    onLeftRelative: listeners.onLeftRelative,
    onBatchLine: listeners.onBatchLine,
    cancellation: listeners.cancellation,
    ...(request.synthesize ? {
      synthesize: {
        onFallback: (fallback: SynthesisFallback) => {
          fallbackCount += 1;
          if (named.length < namedFallbacks) named.push(fallback);
        },
      },
    } : {}),
  });
  const { summary, usage, batch, synthesis } = result;
  const failed = summary.failed + summary.skippedFailed;
  const notStarted = summary.total - summary.done - summary.unchanged - failed - summary.empty - summary.deferred;
  return {
    kind: 'run',
    table,
    model: session.settings.extractModel,
    summary,
    usage,
    failed,
    // The calls the run made were sent at once (a batch's replies come from the cache): billed at the list price.
    costUsd: price ? usageCost(usage, price) : null,
    ending: summary.budgetReached ? 'budget-reached' : failed > 0 ? 'failed' : 'done',
    ...(request.maxCostUsd !== undefined ? { budget: { maxCostUsd: request.maxCostUsd, notStarted: summary.budgetReached ? notStarted : 0 } } : {}),
    movedDocuments: result.movedDocuments ?? { moved: [], gone: [], pruned: false },
    ...(batch ? {
      batch: {
        waiting: batch.deferredDocuments + batch.waitingDocuments,
        submitted: batch.submitted,
        open: batch.open.map((open) => open.id),
        collectedReplies: batch.collected.replies,
      },
    } : {}),
    ...(synthesis ? { synthesis, fallbacks: { named, count: fallbackCount } } : {}),
  };
}
