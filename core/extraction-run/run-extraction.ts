import { SpendBudget } from '../cost/spend-budget.ts';
import { SragError } from '../errors/srag-error.ts';
import { countNoun } from '../text/count-noun.ts';
import type { DocumentOutcome } from './document-outcome.ts';
import type { RunSummary } from './run-summary.ts';
import { startExtractionRun, type ExtractionRunOptions } from './start-extraction-run.ts';

/**
 * Runs an extraction to the end (`srag ingest`, the Sheets batch): every outcome is saved as it
 * comes, then the table's statistics are refreshed — also when the run stops early, so that they
 * describe what was saved. Rejects with the error that stopped the run once nothing is in flight;
 * a cancel says how to resume. A run stopped by its spending limit (`budget`) resolves, with
 * `budgetReached` set.
 */
export async function runExtraction(options: Omit<ExtractionRunOptions, 'lookahead'> & {
  /** Each outcome, in document order, once saved (the run keeps none of them). */
  onOutcome?: (outcome: DocumentOutcome) => void;
}): Promise<RunSummary> {
  const run = startExtractionRun({ ...options, lookahead: Number.POSITIVE_INFINITY });
  let failure: unknown;
  try {
    // Outcomes are saved by the run; the summary counts them.
    for (let done = false; !done;) {
      const next = await run.next(Number.POSITIVE_INFINITY);
      for (const outcome of next.outcomes) options.onOutcome?.(outcome);
      done = next.done;
    }
  } catch (error) {
    failure = error;
    run.stop(error);
    await run.whenSettled();
  }
  const storeFailed = SragError.isInstance(failure) && failure.code === 'STORE_FAILED';
  if (run.summary.done + run.summary.failed > 0 && !storeFailed) {
    try {
      await options.store.refreshStatistics();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure === undefined) return run.summary;
  if (SpendBudget.isStop(failure)) {
    // Stopping at the budget is how such a run ends: what is done is saved, the summary says so.
    run.summary.budgetReached = true;
    return run.summary;
  }
  if (SragError.isInstance(failure) && failure.code === 'CANCELLED') {
    throw new SragError({
      code: 'CANCELLED',
      message: `cancelled after ${countNoun(run.summary.done, 'new record')}; finished documents are saved — run the same command again to resume`,
      cause: failure,
    });
  }
  throw failure;
}
