import { describe, expect, it } from 'vitest';
import { describeCoverage } from '../../core/index.ts';
import { InMemorySqlEngine } from '../../records-sql/index.ts';
import { recordsRangeTable } from '../../sheets-addon/src/custom-functions/records-range-table.ts';
import { sheetsCoverageSource } from '../../sheets-addon/src/custom-functions/sheets-coverage-source.ts';

/** Ten rentals in a Records range: prices 80-170 and one read in cents (×1,000 the rest), as in the DuckDB coverage test. */
const range = [
  ['_source', 'city', 'price', '_error'],
  ...[80, 95, 110, 120, 130].map((price, index) => [`r${index + 1}`, 'Lisbon', price, '']),
  ...[140, 150, 160, 170, 145_000].map((price, index) => [`r${index + 6}`, 'Porto', price, '']),
];

describe('=SRAG_ASK names a value far from the rest of its column, as srag ask does over DuckDB (issue 37, item 4)', () => {
  const records = recordsRangeTable(range, new Map(), 'Rentals', 'UTC');
  const source = sheetsCoverageSource(new InMemorySqlEngine({ rentals: records.table }), records);

  it('finds the same value, by the same rule, among the rows the query selects', async () => {
    const coverage = await source.countCoverage('SELECT max(price) FROM rentals', 'rentals', ['city', 'price']);
    expect(coverage).toEqual([expect.objectContaining({
      column: 'price', rows: 10, present: 10,
      outliers: [{ value: 145000, document: 'r10', side: 'highest', next: 170, times: 853, why: 'srag why r10 price' }],
    })]);
    const note = describeCoverage(coverage, { title: 'Rentals', whereToLook: () => 'see the _error column', whereToCheck: (_, document) => `see the row of ${document}` });
    expect(note).toBe('price: the largest value, 145,000 (r10), is 853 times the next largest, 170 (see the row of r10).');
    const lisbon = await source.countCoverage(`SELECT max(price) FROM rentals WHERE city = 'Lisbon'`, 'rentals', ['city', 'price']);
    expect(lisbon.find((column) => column.column === 'price')).not.toHaveProperty('outliers');
  });
});
