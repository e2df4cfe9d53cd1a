import { countNoun, type BatchApi, type ModelClient } from '../../../core/index.ts';
import type { BatchJobs } from '../../duckdb/store/batch-jobs.ts';

export interface OpenBatchesState {
  /** Documents whose submission still has a batch out: a run leaves them alone. */
  waiting: Set<string>;
  /** Cache keys of lines a finished batch did not answer (expired, failed): they go the ordinary way. */
  failedKeys: Set<string>;
  /** Batches still out, with the provider's word for where they are. */
  open: Array<{ id: string; status: string }>;
  /** Replies moved into the response cache now, with the tokens the batches billed for them. */
  collected: { batches: number; replies: number; failedLines: number; promptTokens: number; completionTokens: number };
}

/**
 * Asks the provider about each open batch of `table`: a finished one has its replies put in the
 * response cache under their requests' keys (and is marked collected), so the run that follows
 * reads them like any cached reply — through the same validation, evidence checks and ingestion
 * log; one still running is reported with its progress and its documents are left waiting. Calls
 * go through the model client for its retries (429, 5xx, timeouts).
 */
export async function collectOpenBatches({ table, batchJobs, batchApi, client, onLine, signal }: {
  table: string;
  batchJobs: BatchJobs;
  batchApi: () => BatchApi;
  client: ModelClient;
  onLine?: (line: string) => void;
  signal?: AbortSignal;
}): Promise<OpenBatchesState> {
  const state: OpenBatchesState = {
    waiting: new Set(), failedKeys: new Set(), open: [],
    collected: { batches: 0, replies: 0, failedLines: 0, promptTokens: 0, completionTokens: 0 },
  };
  const batches = await batchJobs.open(table);
  if (batches.length === 0) return state;
  const api = batchApi();
  for (const batch of batches) {
    const status = await client.call('batch', (attemptSignal) => api.retrieve(batch.batchId, attemptSignal), signal);
    if (!status.finished) {
      state.open.push({ id: batch.batchId, status: status.status });
      onLine?.(`batch ${batch.batchId}: ${status.status}, ${status.completed} of ${countNoun(status.total || batch.requestCount, 'request')} answered` +
        `${status.failed ? `, ${status.failed} failed` : ''} (submitted ${elapsed(batch.submittedAt)} ago; the Batch API answers within 24 hours)`);
      continue;
    }
    if (status.status === 'unknown') {
      await batchJobs.collect(batch.batchId, []);
      onLine?.(`batch ${batch.batchId}: the endpoint does not know it (another OPENAI_BASE_URL, or deleted); its ${countNoun(batch.requestCount, 'request')} are asked again`);
      continue;
    }
    const lines = await client.call('batch', (attemptSignal) => api.results(batch.batchId, attemptSignal), signal);
    // The batch's endpoint gave them (the request key is not at hand: such a reply is read by its key).
    const endpoint = client.languageModel.endpoint;
    const replies = lines.flatMap((line) => ('response' in line ? [{ key: line.customId, response: { ...line.response, ...(endpoint !== undefined ? { endpoint } : {}) } }] : []));
    const failed = lines.filter((line) => 'error' in line);
    for (const line of failed) state.failedKeys.add(line.customId);
    await batchJobs.collect(batch.batchId, replies);
    const promptTokens = replies.reduce((sum, reply) => sum + reply.response.usage.promptTokens, 0);
    const completionTokens = replies.reduce((sum, reply) => sum + reply.response.usage.completionTokens, 0);
    const unanswered = Math.max(0, batch.requestCount - replies.length);
    Object.assign(state.collected, {
      batches: state.collected.batches + 1,
      replies: state.collected.replies + replies.length,
      failedLines: state.collected.failedLines + unanswered,
      promptTokens: state.collected.promptTokens + promptTokens,
      completionTokens: state.collected.completionTokens + completionTokens,
    });
    const firstError = failed[0] && 'error' in failed[0] ? ` (first: ${failed[0].error})` : '';
    onLine?.(`batch ${batch.batchId}: ${status.status}; collected ${countNoun(replies.length, 'reply', 'replies')} (${promptTokens} prompt + ${completionTokens} completion tokens at the Batch API's price)` +
      `${unanswered ? `; ${countNoun(unanswered, 'request')} not answered${firstError} go the ordinary way` : ''}${status.errors.length ? `; the provider said: ${status.errors.slice(0, 3).join('; ')}` : ''}`);
  }
  state.waiting = await batchJobs.waitingSources(table);
  return state;
}

function elapsed(since: Date): string {
  const minutes = Math.max(0, Math.round((Date.now() - since.getTime()) / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return countNoun(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  return `${countNoun(hours, 'hour')}${minutes % 60 ? ` ${countNoun(minutes % 60, 'minute')}` : ''}`;
}
