import { isIncomplete, type ColumnCoverage } from './column-coverage.ts';
import { describeCoverage } from './describe-coverage.ts';

/**
 * The answer prompt's `{{coverage}}`: what the values behind the result rest on, so the worded
 * answer claims no more than the data ("among the 31 hotels that state a price"). Said in the same
 * words the user is shown (`describeCoverage`).
 */
export function renderCoverageForPrompt(coverage: readonly ColumnCoverage[] | undefined, title: string): string {
  if (!coverage) return 'Coverage: unknown (no evidence is kept for this table).';
  if (!coverage.some(isIncomplete)) return 'Coverage: every value the query read is present in its document.';
  return `Coverage of the columns the query read (some values are missing):\n${describeCoverage(coverage, { title })}`;
}
