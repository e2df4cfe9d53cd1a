import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeCoverage, findColumnOutliers, renderCoverageForPrompt, type ColumnCoverage, type ColumnExtremes } from '../../core/index.ts';

/** A column's ends as an engine counts them: the three largest and smallest values, with made-up documents. */
function extremesOf(values: number[]): ColumnExtremes {
  const sorted = values.map((value, index) => ({ value, document: `docs/page-${index}.md` })).sort((left, right) => left.value - right.value);
  return { count: values.length, lowest: sorted.slice(0, 3), highest: sorted.slice(-3).reverse() };
}

const worldCupAttendance = readFileSync('examples/worldcup/gold/records.jsonl', 'utf8').trim().split('\n')
  .map((line) => (JSON.parse(line) as { values: { attendance: { value: number } } }).values.attendance.value);
const birthYears = Array.from({ length: 40 }, (_, index) => 1962 + index);

describe('findColumnOutliers (issue 37, item 4)', () => {
  const prices = [80, 95, 110, 120, 130, 140, 150, 160, 170];
  const salaries = [88_000, 92_000, 95_000, 101_000, 110_000, 115_000, 120_000, 125_000, 131_000];

  it('names a maximum many times the next value, and a value a thousand times too small', () => {
    expect(findColumnOutliers(extremesOf([...prices, 1_600]), 'price')).toEqual([
      { value: 1600, document: 'docs/page-9.md', side: 'highest', next: 170, times: 9.4, why: 'srag why page-9.md price' },
    ]);
    expect(findColumnOutliers(extremesOf([...salaries, 120]), 'salary')).toEqual([
      expect.objectContaining({ value: 120, side: 'lowest', next: 88_000, times: 733 }),
    ]);
    // A file name a shell would split is quoted in the command.
    const named = findColumnOutliers({ ...extremesOf([...prices, 1_600]), highest: [{ value: 1_600, document: 'docs/Hotel Paris.md' }, { value: 170, document: 'b' }] }, 'price');
    expect(named[0]!.why).toBe("srag why 'Hotel Paris.md' price");
  });

  it('names nothing in the same columns without the slip, nor in a wide spread whose maximum is a few times the next', () => {
    expect(findColumnOutliers(extremesOf(prices), 'price')).toEqual([]);
    expect(findColumnOutliers(extremesOf([100, 200, 300, 450, 600, 800, 1000, 1300, 1600, 2500]), 'price')).toEqual([]);
    // Over a tight rest a value a few times the next does stand apart, by its gap.
    expect(findColumnOutliers(extremesOf([...prices, 900]), 'price')).toEqual([expect.objectContaining({ value: 900, rest: { lowest: 80, highest: 170 } })]);
    expect(findColumnOutliers(extremesOf(salaries), 'salary')).toEqual([]);
  });

  it('names a year outside the range of the others, and two such values together', () => {
    expect(findColumnOutliers(extremesOf([...birthYears, 2019]), 'birth_year')).toEqual([
      expect.objectContaining({ value: 2019, side: 'highest', next: 2001, rest: { lowest: 1962, highest: 2001 } }),
    ]);
    expect(findColumnOutliers(extremesOf([...birthYears, 2019, 2021]), 'birth_year').map((outlier) => outlier.value)).toEqual([2021, 2019]);
  });

  it('names nothing in a column whose values spread naturally, however wide', () => {
    expect(worldCupAttendance.length).toBeGreaterThan(20);
    expect(findColumnOutliers(extremesOf(worldCupAttendance), 'attendance')).toEqual([]);
    expect(findColumnOutliers(extremesOf(birthYears), 'birth_year')).toEqual([]);
    expect(findColumnOutliers(extremesOf([1, 2, 3, 5, 8, 13, 21, 34, 55, 89]), 'count')).toEqual([]);
    expect(findColumnOutliers(extremesOf([-500, -3, 0, 2, 4, 6]), 'net')).toEqual([]);
  });

  it('names nothing when the rest is fewer than eight values: a few values may lie anywhere', () => {
    expect(findColumnOutliers(extremesOf([80, 95, 110, 120, 120_000]), 'price')).toEqual([]);
    expect(findColumnOutliers(extremesOf([1990, 1991, 1992, 1993, 2050]), 'built')).toEqual([]);
    expect(findColumnOutliers(undefined, 'price')).toEqual([]);
  });
});

describe('the coverage note and the answer prompt name a value far from the rest', () => {
  const complete: ColumnCoverage = { column: 'price', rows: 10, present: 10, missing: 0, dropped: 0, unknown: 0, conflicting: 0, over: 'selected' };
  const withOutlier: ColumnCoverage = { ...complete, outliers: findColumnOutliers(extremesOf([80, 95, 110, 120, 130, 140, 150, 160, 120, 120_000]), 'price') };

  it('speaks of a complete column only when a value stands apart, with where to check it', () => {
    expect(describeCoverage([complete], { title: 'Hotels' })).toBeUndefined();
    expect(describeCoverage([withOutlier], { title: 'Hotels' })).toBe('price: the largest value, 120,000 (page-9.md), is 750 times the next largest, 160 (see srag why page-9.md price).');
    const missing = { ...withOutlier, rows: 11, missing: 1 };
    expect(describeCoverage([missing], { title: 'Hotels', whereToLook: (column, document) => `see srag why ${document} ${column} --db h.duckdb` }))
      .toBe('price: computed over 10 of the 11 hotels the query selects; 1 do not state it; the largest value, 120,000 (page-9.md), is 750 times the next largest, 160 (see srag why docs/page-9.md price --db h.duckdb).');
  });

  it('tells the answer prompt, which otherwise says every value is present', () => {
    expect(renderCoverageForPrompt([complete], 'Hotels')).toBe('Coverage: every value the query read is present in its document.');
    expect(renderCoverageForPrompt([withOutlier], 'Hotels')).toBe('Coverage of the columns the query read (some lie far from the rest):\nprice: the largest value, 120,000 (page-9.md), is 750 times the next largest, 160 (see srag why page-9.md price).');
  });
});
