import type { ColumnExtremes, ValueOfDocument } from './column-extremes.ts';
import type { ColumnOutlier } from './column-outlier.ts';
import { documentName } from './document-name.ts';

/** How many times the next value a value must be to stand apart: a unit slip is 1,000, a decoy often 10 or more. */
export const outlierFactor = 9;
/**
 * How far beyond the rest a value must lie to stand apart ("born 2019" among 1962 to 2001): at
 * least this many times the rest's mean gap between neighbours, and `outlierGapShare` of its range.
 */
export const outlierGapTimes = 10;
export const outlierGapShare = 0.25;
/** Fewer values than this in the rest say nothing of a column's spread: a few values may lie anywhere. */
const leastValuesInRest = 8;

/**
 * The values at either end of a numeric column that lie far from the rest, from the column's ends
 * only (no row is read): one or two values (a pair may stand together, two decoys or two slips)
 * at least `outlierFactor` times the next value (all positive), or whose gap to the next is many
 * times the rest's mean gap and a good share of its range (`outlierGapTimes`, `outlierGapShare`),
 * both as the values are and, when every value is positive, on a log scale (so neither the sparse
 * low end of an even spread nor the high end of a column that grows by factors reads as far). Only with `leastValuesInRest` values
 * besides: a few values may lie anywhere.
 * The outermost first. Decided here, in one place, for every surface; an adapter only counts the
 * ends (`ColumnExtremes`).
 */
export function findColumnOutliers(extremes: ColumnExtremes | undefined, column: string): ColumnOutlier[] {
  if (!extremes) return [];
  const outliers: ColumnOutlier[] = [];
  for (const side of ['highest', 'lowest'] as const) {
    const ends = extremes[side];
    const far = (side === 'highest' ? extremes.lowest : extremes.highest)[0];
    for (let size = 1; size <= Math.min(2, ends.length - 1); size += 1) {
      if (extremes.count - size < leastValuesInRest) break;
      const apart = standsApart(ends[size - 1]!, ends[size]!, far, side, extremes.count - size);
      if (!apart) continue;
      for (const end of ends.slice(0, size)) {
        outliers.push({ ...apart, value: end.value, document: end.document, why: `srag why ${shellWord(documentName(end.document))} ${shellWord(column)}` });
      }
      break;
    }
  }
  return outliers;
}

/**
 * How `inner` (the last of a group at one end) stands apart from `next`, the nearest of the rest,
 * or undefined when it does not: a factor, or a gap against the range from `next` to `far`.
 */
function standsApart(inner: ValueOfDocument, next: ValueOfDocument, far: ValueOfDocument | undefined, side: 'highest' | 'lowest', restCount: number): Omit<ColumnOutlier, 'why' | 'value' | 'document'> | undefined {
  const [larger, smaller] = side === 'highest' ? [inner.value, next.value] : [next.value, inner.value];
  if (smaller > 0 && larger >= outlierFactor * smaller) return { side, next: next.value, times: roundTimes(larger / smaller) };
  if (!far) return undefined;
  const rest = side === 'highest' ? { lowest: far.value, highest: next.value } : { lowest: next.value, highest: far.value };
  const farOnScale = (scale: (value: number) => number) => {
    const range = scale(rest.highest) - scale(rest.lowest);
    const gap = Math.abs(scale(inner.value) - scale(next.value));
    return range > 0 && gap >= outlierGapShare * range && gap >= (outlierGapTimes * range) / (restCount - 1);
  };
  // Far on both scales: a uniform column's sparse low end is no outlier, nor a column of factors' high end.
  if (!farOnScale((value) => value) || (Math.min(rest.lowest, inner.value) > 0 && !farOnScale(Math.log))) return undefined;
  return { side, next: next.value, rest };
}

/** A word a POSIX shell reads as written: as it is when it is plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** 13,365 rather than 13365.27; 5.3 below 10. */
function roundTimes(times: number): number {
  return times >= 10 ? Math.round(times) : Math.round(times * 10) / 10;
}
