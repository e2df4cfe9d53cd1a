import { singularNoun } from '../schema/singular-noun.ts';
import { countNoun } from '../text/count-noun.ts';
import { isWorthANote, type ColumnCoverage } from './column-coverage.ts';
import type { ColumnOutlier } from './column-outlier.ts';
import { documentName } from './document-name.ts';

export interface DescribeCoverageOptions {
  /** The schema's title ("Hotels"): what a row is called, "31 of 50 hotels". */
  title: string;
  /**
   * Where a user sees why one value was dropped, e.g. `(document) => \`srag why ${document} ${column}\``
   * or "see the _error column"; left out when the surface has no such place.
   */
  whereToLook?: (column: string, document: string | undefined) => string;
  /**
   * Where a user checks a value that lies far from the rest (`ColumnCoverage.outliers`), e.g. its
   * `srag why` command with `--db`; `whereToLook` when absent, and the outlier's `why` when that is too.
   */
  whereToCheck?: (column: string, document: string) => string;
}

/**
 * The coverage note every surface shows with an answer, one line per column that is not complete
 * or holds a value far from the rest: "price_per_night: computed over 31 of the 50 hotels the
 * query selects; 15 do not state it, 4 values were dropped (see `srag why amber-arch.md
 * price_per_night`)." or "price_per_night: the largest value, 6,700,000 (amber-arch.md), is 13,365
 * times the next largest, 502 (see `srag why amber-arch.md price_per_night`)." Undefined when
 * every value behind the answer is present and none stands apart: then nothing extra is said.
 */
export function describeCoverage(coverage: readonly ColumnCoverage[] | undefined, options: DescribeCoverageOptions): string | undefined {
  if (!coverage) return undefined;
  const lines = coverage.filter(isWorthANote).map((column) => describeColumn(column, options));
  return lines.length ? lines.join('\n') : undefined;
}

function describeColumn(column: ColumnCoverage, options: DescribeCoverageOptions): string {
  const outliers = (column.outliers ?? []).map((outlier, index, all) => describeOutlier(column.column, outlier, all.slice(0, index).filter((other) => other.side === outlier.side).length, options));
  const incomplete = describeIncomplete(column, options);
  if (!incomplete) return `${column.column}: ${outliers.join('; ')}.`;
  return outliers.length ? `${incomplete.slice(0, -1)}; ${outliers.join('; ')}.` : incomplete;
}

/**
 * "the largest value, 6,700,000 (amber-arch.md), is 13,365 times the next largest, 502", "the
 * smallest value, 120 (cv-0007.md), is 1/750 of the next smallest, 90,000", "the largest value,
 * 2019 (cv-0001.md), lies far above the rest (1962 to 2001)", with where to check it.
 */
function describeOutlier(column: string, outlier: ColumnOutlier, rank: number, options: DescribeCoverageOptions): string {
  const [extreme, next, direction] = outlier.side === 'highest' ? ['largest', 'next largest', 'above'] : ['smallest', 'next smallest', 'below'];
  const which = `the ${rank === 0 ? '' : 'second '}${extreme} value, ${formatNumber(outlier.value)} (${documentName(outlier.document)}),`;
  const how = outlier.times !== undefined
    ? outlier.side === 'highest' ? `is ${formatNumber(outlier.times)} times the ${next}, ${formatNumber(outlier.next)}` : `is 1/${formatNumber(outlier.times)} of the ${next}, ${formatNumber(outlier.next)}`
    : `lies far ${direction} the rest (${formatNumber(outlier.rest?.lowest ?? outlier.next)} to ${formatNumber(outlier.rest?.highest ?? outlier.next)})`;
  const check = options.whereToCheck?.(column, outlier.document) ?? options.whereToLook?.(column, outlier.document) ?? `see ${outlier.why}`;
  return `${which} ${how} (${check})`;
}


/** 6,700,000; 13,365; 2019; 0.25: thousands grouped from five digits on (a year stays a year), at most four decimals. */
function formatNumber(value: number): string {
  const [whole, fraction] = String(Math.round(value * 1e4) / 1e4).split('.');
  const sign = whole!.startsWith('-') ? '-' : '';
  const digits = whole!.replace('-', '');
  return `${sign}${digits.length >= 5 ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : digits}${fraction ? `.${fraction}` : ''}`;
}

/** The words for a column's missing, dropped and unknown values; undefined when it has none. */
function describeIncomplete(column: ColumnCoverage, options: DescribeCoverageOptions): string | undefined {
  if (column.missing + column.dropped + column.unknown + column.conflicting === 0) return undefined;
  const noun = rowNoun(options.title);
  const of = column.over === 'selected'
    ? `of the ${countNoun(column.rows, noun.singular, noun.plural)} the query selects`
    : `of all ${countNoun(column.rows, noun.singular, noun.plural)}`;
  const stated = column.present + column.unknown;
  const head = column.reason === 'filtered'
    ? `${column.column}: ${stated} ${of} state it, so the filter on it could judge only those`
    : `${column.column}: computed over ${stated} ${of}`;
  const parts: string[] = [];
  if (column.missing) parts.push(`${column.missing} do not state it`);
  if (column.dropped) {
    const look = options.whereToLook ? ` (${options.whereToLook(column.column, column.droppedExample)})` : '';
    parts.push(`${countNoun(column.dropped, 'value was', 'values were')} dropped as unsupported or invalid${look}`);
  }
  if (column.unknown) parts.push(`${countNoun(column.unknown, 'value has', 'values have')} no checked quote (ingested with --no-evidence, or no evidence kept), so coverage is unknown for ${column.unknown === 1 ? 'it' : 'them'}`);
  if (column.conflicting) parts.push(`${countNoun(column.conflicting, 'value comes', 'values come')} from parts of a document that disagree (the first part's is kept)`);
  const underivable = column.reason === 'underivable' ? ' (the rows the query selects could not be derived, so every row is counted)' : '';
  return `${head}; ${parts.join(', ')}${underivable}.`;
}

/** "Hotels" → hotel / hotels: what one row of the table is, for counts in the note. */
function rowNoun(title: string): { singular: string; plural: string } {
  const words = title.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!words) return { singular: 'document', plural: 'documents' };
  const lastSpace = words.lastIndexOf(' ');
  const head = words.slice(0, lastSpace + 1);
  const last = words.slice(lastSpace + 1);
  const singular = singularNoun(last);
  return { singular: head + singular, plural: singular === last && !last.endsWith('s') ? `${words}s` : words };
}
