import type { IngestOutcome } from './ingest-outcome.ts';

/**
 * An ingest's outcome in its JSON form, the same on every surface: the line `srag ingest --json`
 * prints and the `result` of a `srag serve` ingest job (a dry run's estimate, which `POST /ingest`
 * answers at once, is `srag ingest --dry-run --json`'s line). Keys are snake_case, as the CLI's
 * `--json` always had them; `database` is the file as the caller named it.
 */
export function ingestOutcomeJson(outcome: IngestOutcome, { database }: { database: string }): Record<string, unknown> {
  if (outcome.kind === 'dry-run') {
    return {
      documents: outcome.documents, calls: outcome.calls, prompt_tokens: outcome.promptTokens, completion_tokens: outcome.completionTokens, cost_usd: outcome.costUsd,
      model: outcome.model, table: outcome.table, left_alone: outcome.leftAlone, unreadable: outcome.unreadable,
      moved: outcome.movedDocuments.moved.length, gone: outcome.movedDocuments.gone.length,
      ...(outcome.waitingForBatchApi ? { waiting_for_batch_api: outcome.waitingForBatchApi } : {}),
    };
  }
  const { summary, usage, movedDocuments, batch, synthesis } = outcome;
  return {
    table: outcome.table, documents: summary.total, done: summary.done, without_values: summary.withoutValues, failed: outcome.failed,
    unchanged: summary.unchanged, empty: summary.empty, from_cache: summary.fromCache, calls: usage.calls, retries: usage.retries,
    prompt_tokens: usage.promptTokens, cached_prompt_tokens: usage.cachedPromptTokens, completion_tokens: usage.completionTokens,
    reasoning_tokens: usage.reasoningTokens, calls_without_usage: usage.callsWithoutUsage,
    cost_usd: outcome.costUsd, model: outcome.model, budget_reached: summary.budgetReached, database,
    moved: movedDocuments.moved.length, gone: movedDocuments.gone.length, pruned: movedDocuments.pruned ? movedDocuments.gone.length : 0,
    ...(batch ? { batch_api: { waiting: batch.waiting, submitted: batch.submitted, open: batch.open, collected_replies: batch.collectedReplies } } : {}),
    ...(synthesis ? { synthesis } : {}),
  };
}
