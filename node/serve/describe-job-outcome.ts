import { countNoun, formatUsd } from '../../core/index.ts';
import { describeMovedDocuments } from '../session/describe-moved-documents.ts';
import { describeSynthesisFallbacks } from '../session/describe-synthesis-fallbacks.ts';
import type { IngestReport } from '../session/ingest-outcome.ts';

/**
 * An ingest job's words for what its run leaves to know, in the API's terms (the request's fields,
 * "submit the same job again" where the CLI says "run the same command again"): moved and gone
 * documents, extractors that failed, batches still out, the budget it stopped at.
 */
export function describeJobOutcome(report: IngestReport): string[] {
  const { table, movedDocuments, batch } = report;
  const lines = describeMovedDocuments(table, movedDocuments, { removeHint: `submit the job again with prune: true to remove ${movedDocuments.gone.length === 1 ? 'it' : 'them'}` });
  if (report.fallbacks) lines.push(...describeSynthesisFallbacks(report.fallbacks));
  if (batch && batch.waiting > 0) {
    lines.push(`${batch.submitted.length ? `submitted batch ${batch.submitted.join(', ')}` : `waiting for batch ${[...batch.open, ...batch.submitted].join(', ')}`}; ` +
      'submit the same job again once the Batch API has answered (within 24 hours) to collect the results');
  }
  if (report.ending === 'budget-reached' && report.budget) {
    lines.push(`stopped before spending more than maxCost ${formatUsd(report.budget.maxCostUsd)}: ${countNoun(report.budget.notStarted, 'document')} not extracted yet; what is done is saved — submit the same job again to go on, with a higher maxCost if needed`);
  }
  return lines;
}
