import { describe, expect, it } from 'vitest';
import { renderStatisticsForTerminal } from '../../node/cli/render-statistics-for-terminal.ts';

describe('srag stats\' statistics on a terminal', () => {
  it('rounds a mean to what can be read and keeps minimum and maximum as they are', () => {
    expect(renderStatisticsForTerminal([
      { name: 'star_rating', kind: 'integer', rowCount: 50, nonNullCount: 45, nonZeroCount: 45, min: 2, max: 5, mean: 3.777777778 },
      { name: 'review_count', kind: 'integer', rowCount: 50, nonNullCount: 43, min: 242, max: 6000, mean: 2932.418605 },
      { name: 'share', kind: 'number', rowCount: 50, nonNullCount: 50, min: 0.0001, max: 0.004, mean: 0.00123456 },
      { name: 'opened_date', kind: 'date', rowCount: 50, nonNullCount: 42, min: '1948-06-06', max: '2018-05-28' },
    ])).toBe([
      '  star_rating: 45 of 50 rows; min 2, max 5, mean 3.78',
      '  review_count: 43 of 50 rows; min 242, max 6000, mean 2932.42',
      '  share: 50 of 50 rows; min 0.0001, max 0.004, mean 0.00123',
      '  opened_date: 42 of 50 rows; min 1948-06-06, max 2018-05-28',
    ].join('\n'));
  });

  it('shows the five most frequent values of a column and counts the rest, so fifty names stay one short line', () => {
    const values = Array.from({ length: 50 }, (_, index) => ({ value: `Hotel ${index + 1}`, count: 1 }));
    const line = renderStatisticsForTerminal([{ name: 'hotel_name', kind: 'string', rowCount: 50, nonNullCount: 50, values, distinctCount: 50 }]);
    expect(line).toBe('  hotel_name: 50 of 50 rows; 50 distinct: "Hotel 1" (1), "Hotel 2" (1), "Hotel 3" (1), "Hotel 4" (1), "Hotel 5" (1), … 45 more');
    expect(renderStatisticsForTerminal([{ name: 'has_pool', kind: 'boolean', rowCount: 50, nonNullCount: 46, values: [{ value: false, count: 28 }, { value: true, count: 18 }], distinctCount: 2 }]))
      .toBe('  has_pool: 46 of 50 rows; 2 distinct: false (28), true (18)');
  });

  it('cuts a long value and escapes what a document could use to move the cursor', () => {
    const line = renderStatisticsForTerminal([{ name: 'notes', kind: 'string', rowCount: 1, nonNullCount: 1, values: [{ value: `\u001b[2J${'x'.repeat(60)}`, count: 1 }], distinctCount: 1 }]);
    expect(line).not.toContain('\u001b');
    expect(line).toContain('…" (1)');
  });
});
