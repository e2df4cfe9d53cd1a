import type { DocumentOutcome } from './document-outcome.ts';

/** Failures kept by name in a summary; the counts cover all of them. */
const namedFailures = 100;

/** The totals of a run, as the CLI's closing line and the Sheets batch report them. */
export interface RunSummary {
  total: number;
  /** Extracted in this run and saved. */
  done: number;
  /** Of `done`: records whose every value is null (the document states none of the attributes). */
  withoutValues: number;
  /** Unchanged since an earlier run: no model call, no write. */
  unchanged: number;
  failed: number;
  /** Failed in an earlier run with the same content and left alone. */
  skippedFailed: number;
  /** Empty or whitespace-only: skipped without a model call. */
  empty: number;
  /** Waiting for a Batch API reply: nothing saved yet. */
  deferred: number;
  /** A back-fill's documents that changed, are gone or have no record: reported, not extracted. */
  stale: number;
  /** Of `done`: records that got only the attributes missing from them (a schema grew or changed). */
  partial: number;
  /** Of `done`: every reply came from the response cache. */
  fromCache: number;
  promptTokens: number;
  /** Of `promptTokens`, served from the endpoint's prompt cache. */
  cachedPromptTokens: number;
  completionTokens: number;
  /** The run stopped before a group that would have taken it past its spending limit; the documents not counted above were not started. */
  budgetReached: boolean;
  /** The first failures (of this run or left from an earlier one), by document label. */
  failures: Array<{ source: string; label: string; error: string }>;
}

export function emptyRunSummary(total: number): RunSummary {
  return { total, done: 0, withoutValues: 0, unchanged: 0, failed: 0, skippedFailed: 0, empty: 0, deferred: 0, stale: 0, partial: 0, fromCache: 0, promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, budgetReached: false, failures: [] };
}

/** Counts one outcome into the summary. */
export function addOutcome(summary: RunSummary, outcome: DocumentOutcome): void {
  switch (outcome.status) {
    case 'done':
      summary.done += 1;
      if (outcome.cached) summary.fromCache += 1;
      if (outcome.onlyAttributes) summary.partial += 1;
      if (outcome.values && Object.values(outcome.values).every((value) => value === null)) summary.withoutValues += 1;
      break;
    case 'unchanged':
      summary.unchanged += 1;
      break;
    case 'empty':
      summary.empty += 1;
      break;
    case 'deferred':
      summary.deferred += 1;
      break;
    case 'stale':
      summary.stale += 1;
      if (summary.failures.length < namedFailures) summary.failures.push({ source: outcome.source, label: outcome.label, error: outcome.error ?? 'stale' });
      break;
    case 'failed':
    case 'skipped-failed':
      if (outcome.status === 'failed') summary.failed += 1;
      else summary.skippedFailed += 1;
      if (summary.failures.length < namedFailures) summary.failures.push({ source: outcome.source, label: outcome.label, error: outcome.error ?? 'failed' });
      break;
  }
  summary.promptTokens += outcome.usage.promptTokens;
  summary.cachedPromptTokens += outcome.usage.cachedPromptTokens ?? 0;
  summary.completionTokens += outcome.usage.completionTokens;
}

/**
 * Adds the summary of another run into `summary` (the runs of one ingest): counts and tokens add
 * up, a flag set in either stays set, failures are listed up to the usual number.
 */
export function addRunSummary(summary: RunSummary, other: RunSummary): void {
  const fields = summary as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(other)) {
    if (typeof value === 'number') fields[key] = (typeof fields[key] === 'number' ? fields[key] : 0) + value;
    else if (typeof value === 'boolean') fields[key] = fields[key] === true || value;
  }
  summary.failures.push(...other.failures.slice(0, Math.max(0, namedFailures - summary.failures.length)));
}
