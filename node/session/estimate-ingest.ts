import { estimateExtractionRun, usageCost, type DocumentSource, type ModelPrice, type RecordSchema } from '../../core/index.ts';
import { hashText } from '../runtime/hash-text.ts';
import { BatchJobs } from '../duckdb/store/batch-jobs.ts';
import { followingMovedDocuments } from '../duckdb/store/moved-documents.ts';
import type { IngestEstimate } from './ingest-outcome.ts';
import type { Session } from './open-session.ts';

/**
 * A dry run: what the ingest would send, from the same plan the run follows, with no model call
 * and no write. Documents a Batch API batch still works on are left out, as a run leaves them out.
 */
export async function estimateIngest(session: Session, { documents, schema, table, runPrice, options }: {
  documents: DocumentSource[];
  schema: RecordSchema;
  table: string;
  runPrice: ModelPrice | undefined;
  options: { evidence: boolean; retryFailed: boolean; batchSize?: number; batchApi: boolean; maxCostUsd?: number; prune: boolean };
}): Promise<IngestEstimate> {
  const waitingSources = await new BatchJobs(session.store).waitingSources(table);
  const toRun = documents.filter((document) => !waitingSources.has(document.source));
  // A moved document keeps its record (see followingMovedDocuments): the estimate finds it unchanged, and nothing moves.
  const store = await followingMovedDocuments(session.store, session.store.extractionStore(table, schema), { table, documents: toRun, plan: true });
  const estimate = await estimateExtractionRun({
    prompts: session.prompts, schema, documents: toRun, store, withEvidence: options.evidence,
    retryFailed: options.retryFailed, maxInputTokens: session.settings.maxInputTokens, loadTokenCounter: session.loadTokenCounter,
    batchSize: options.batchSize, hashText,
  });
  const costUsd = runPrice ? usageCost({ promptTokens: estimate.promptTokens, completionTokens: estimate.completionTokens }, runPrice) : null;
  return {
    kind: 'dry-run',
    table,
    model: session.settings.extractModel,
    documents: estimate.toExtract,
    leftAlone: estimate.leftAlone,
    unreadable: estimate.unreadable,
    waitingForBatchApi: documents.length - toRun.length,
    calls: estimate.calls,
    promptTokens: estimate.promptTokens,
    completionTokens: estimate.completionTokens,
    costUsd,
    batchApi: options.batchApi,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    overBudget: options.maxCostUsd !== undefined && costUsd !== null && costUsd > options.maxCostUsd,
    movedDocuments: { moved: store.moved, gone: store.gone(), pruned: false },
    prune: options.prune,
  };
}
