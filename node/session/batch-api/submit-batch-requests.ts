import { splitBatchRequests, type BatchApi, type BatchRequest } from '../../../core/index.ts';
import type { BatchJobs, SubmittedRun } from '../../duckdb/store/batch-jobs.ts';

/**
 * Sends the requests a run deferred as one submission (several batches when over the provider's
 * limits) and records each batch id right after it was created — with the first, the run's
 * documents (see `BatchJobs.recordSubmission`) — so that a later run collects it. A cancel stops
 * between batches, never between creating one and recording it: a batch the provider made and
 * srag forgot would be billed and asked again. Returns the batch ids.
 */
export async function submitBatchRequests({ table, requests, run, replaces, batchJobs, batchApi, signal }: {
  table: string;
  requests: readonly BatchRequest[];
  run: SubmittedRun;
  /** The submission whose replies the run read (its listing is replaced by this one). */
  replaces?: string;
  batchJobs: BatchJobs;
  batchApi: BatchApi;
  signal?: AbortSignal;
}): Promise<string[]> {
  const ids: string[] = [];
  for (const chunk of splitBatchRequests(requests, batchApi)) {
    if (signal?.aborted && ids.length > 0) break;
    // Not retried: a create that timed out may still have made a batch, and a second one would bill twice.
    const id = await batchApi.submit(chunk, signal);
    // The documents are listed with the first batch, which names the submission; later batches join it.
    await batchJobs.recordSubmission(table, ids[0] ?? id, [{ batchId: id, requestCount: chunk.length }], ids.length === 0 ? run : undefined, ids.length === 0 ? replaces : undefined);
    ids.push(id);
  }
  return ids;
}
