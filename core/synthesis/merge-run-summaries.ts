import type { RunSummary } from '../extraction-run/run-summary.ts';

/** Failures kept by name, as in one run's summary. */
const namedFailures = 100;

/** The totals of two runs over disjoint documents, as one run's. */
export function mergeRunSummaries(first: RunSummary, second: RunSummary): RunSummary {
  const merged = { ...first };
  for (const key of Object.keys(first) as Array<keyof RunSummary>) {
    if (typeof first[key] === 'number') (merged[key] as number) = (first[key] as number) + (second[key] as number);
  }
  merged.failures = [...first.failures, ...second.failures].slice(0, namedFailures);
  return merged;
}
