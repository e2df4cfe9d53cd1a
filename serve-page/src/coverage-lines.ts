import type { ColumnCoverage } from '../../core/coverage/column-coverage.ts';
import { describeCoverage } from '../../core/coverage/describe-coverage.ts';

/** Part of a coverage line: words, or the place to see a value's evidence (a link on the page). */
export type CoverageSegment = { text: string } | { evidence: { column: string; document: string } };

/** A character no coverage note holds: it marks where a link goes while core words the note. */
const marker = '\u0000';

/**
 * The coverage note `srag ask` prints, in core's words (`describeCoverage`), one line per column
 * that is not complete or holds a value far from the rest, each place the CLI says `see srag why
 * DOCUMENT COLUMN` made a link to that value's evidence. Undefined when there is nothing to say.
 * `title` is what a row is called, the answer's tables' titles as the CLI joins them.
 */
export function coverageLines(coverage: readonly ColumnCoverage[] | null | undefined, title: string): CoverageSegment[][] | undefined {
  const places: Array<{ column: string; document: string }> = [];
  const note = describeCoverage(coverage ?? undefined, {
    title,
    whereToLook: (column, document) => {
      if (document === undefined) return 'its values are among the records behind the answer';
      places.push({ column, document });
      return `${marker}${places.length - 1}${marker}`;
    },
  });
  if (note === undefined) return undefined;
  return note.split('\n').map((line) => line.split(marker).flatMap((part, index): CoverageSegment[] => {
    if (index % 2 === 0) return part ? [{ text: part }] : [];
    return [{ evidence: places[Number(part)]! }];
  }));
}
