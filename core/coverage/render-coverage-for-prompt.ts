import { isIncomplete, isWorthANote, type ColumnCoverage } from './column-coverage.ts';
import { describeCoverage } from './describe-coverage.ts';

/**
 * The answer prompt's `{{coverage}}`: what the values behind the result rest on, so the worded
 * answer claims no more than the data ("among the 31 hotels that state a price") and says when it
 * rests on a value far from the rest. Said in the same words the user is shown (`describeCoverage`).
 */
export function renderCoverageForPrompt(coverage: readonly ColumnCoverage[] | undefined, title: string): string {
  if (!coverage) return 'Coverage: unknown (no evidence is kept for this table).';
  if (!coverage.some(isWorthANote)) return 'Coverage: every value the query read is present in its document.';
  const why = [coverage.some(isIncomplete) ? 'some values are missing' : '', coverage.some((column) => column.outliers?.length) ? 'some lie far from the rest' : ''].filter(Boolean).join(', ');
  return `Coverage of the columns the query read (${why}):\n${describeCoverage(coverage, { title })}`;
}
