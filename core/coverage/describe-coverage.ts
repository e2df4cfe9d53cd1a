import { singularNoun } from '../schema/singular-noun.ts';
import { countNoun } from '../text/count-noun.ts';
import { isIncomplete, type ColumnCoverage } from './column-coverage.ts';

export interface DescribeCoverageOptions {
  /** The schema's title ("Hotels"): what a row is called, "31 of 50 hotels". */
  title: string;
  /**
   * Where a user sees why one value was dropped, e.g. `(document) => \`srag why ${document} ${column}\``
   * or "see the _error column"; left out when the surface has no such place.
   */
  whereToLook?: (column: string, document: string | undefined) => string;
}

/**
 * The coverage note every surface shows with an answer, one line per column that is not complete:
 * "price_per_night: computed over 31 of the 50 hotels the query selects; 15 do not state it,
 * 4 values were dropped (see `srag why amber-arch.md price_per_night`)." Undefined when every
 * value behind the answer is present: then nothing extra is said.
 */
export function describeCoverage(coverage: readonly ColumnCoverage[] | undefined, options: DescribeCoverageOptions): string | undefined {
  if (!coverage) return undefined;
  const lines = coverage.filter(isIncomplete).map((column) => describeColumn(column, options));
  return lines.length ? lines.join('\n') : undefined;
}

function describeColumn(column: ColumnCoverage, options: DescribeCoverageOptions): string {
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
