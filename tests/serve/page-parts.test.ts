import { describe, expect, it } from 'vitest';
import type { TableDetail } from '../../serve-page/src/api-types.ts';
import { chooseChart } from '../../serve-page/src/choose-chart.ts';
import { columnUnit } from '../../serve-page/src/column-unit.ts';
import { coverageLines } from '../../serve-page/src/coverage-lines.ts';
import { describeUsage } from '../../serve-page/src/describe-usage.ts';
import { fixChoices } from '../../serve-page/src/fix-choices.ts';
import { tableChoiceParts } from '../../serve-page/src/table-choice-parts.ts';

// The page's decisions that need no browser: which chart a result gets, which unit a result column
// carries, the coverage note's words with its links, what an answer cost, an error's fix as choices.
// The browser test (serve-page-browser.test.ts) shows them drawn.

function table(name: string, attributes: TableDetail['attributes'], extra: Partial<TableDetail> = {}): TableDetail {
  return { name, madeBy: 'srag ingest', title: name, attributes, entities: [], ...extra };
}

const hotels = table('hotels', [{ name: 'price_per_night', kind: 'number', unit: 'USD' }, { name: 'star_rating', kind: 'integer' }]);
const guesthouses = table('guesthouses', [{ name: 'price_per_night', kind: 'number', unit: 'EUR' }]);

describe('the chart a result is drawn as', () => {
  it('draws a group-by or a ranking as bars in the result\'s order, whichever column holds the numbers', () => {
    expect(chooseChart(['star_rating', 'rooms'], [[2, 4], [3, 9], [4, 6]])).toEqual({ kind: 'bar', label: 0, value: 1 });
    expect(chooseChart(['count_star()', 'city'], [[5, 'Paris'], [3, 'Rome']])).toEqual({ kind: 'bar', label: 1, value: 0 });
  });

  it('draws a series over dates, or over years named so, as a line', () => {
    expect(chooseChart(['day', 'n'], [['2024-01-01', 1], ['2024-01-02', 3], ['2024-01-03', 2]])).toEqual({ kind: 'line', label: 0, value: 1 });
    expect(chooseChart(['year', 'teams'], [[1930, 13], [1934, 16], [1938, 15]])).toEqual({ kind: 'line', label: 0, value: 1 });
    // Numbers not named as periods are categories: bars, not a line.
    expect(chooseChart(['star_rating', 'rooms'], [[2, 4], [3, 9], [4, 6]])?.kind).toBe('bar');
  });

  it('keeps a table when a chart would have to guess: one value, no numbers, several numbers, repeated labels, a wall of bars, a NULL label', () => {
    expect(chooseChart(['avg(price)'], [[215.4]])).toBeUndefined();
    expect(chooseChart(['city', 'count'], [['Paris', 10]])).toBeUndefined();
    expect(chooseChart(['name', 'city'], [['Amber', 'Paris'], ['Birch', 'Rome']])).toBeUndefined();
    expect(chooseChart(['city', 'min', 'max'], [['Paris', 1, 2], ['Rome', 3, 4]])).toBeUndefined();
    expect(chooseChart(['city', 'price'], [['Paris', 1], ['Paris', 2]])).toBeUndefined();
    expect(chooseChart(['name', 'price'], Array.from({ length: 61 }, (_, index) => [`hotel ${index}`, index]))).toBeUndefined();
    expect(chooseChart(['city', 'price'], [[null, 1], ['Paris', 2]])).toBeUndefined();
  });
});

describe('the unit of a result column', () => {
  it('is the attribute\'s, whether the column names it, qualifies it, aggregates it keeping its unit, or is an alias saying so', () => {
    for (const column of ['price_per_night', 'h.price_per_night', 'avg(price_per_night)', 'AVG(h.price_per_night)', 'max(DISTINCT price_per_night)', 'average_price_per_night']) {
      expect(columnUnit(column, [hotels]), column).toBe('USD');
    }
  });

  it('is none for a count, another attribute, or tables that give the attribute different units', () => {
    expect(columnUnit('count(price_per_night)', [hotels])).toBeUndefined();
    expect(columnUnit('star_rating', [hotels])).toBeUndefined();
    expect(columnUnit('price_per_night_total', [hotels])).toBeUndefined();
    expect(columnUnit('avg(price_per_night)', [hotels, guesthouses])).toBeUndefined();
  });
});

describe('the coverage note on the page', () => {
  it('is the CLI\'s words, each dropped value a link to its evidence instead of a command', () => {
    const lines = coverageLines([{ column: 'price_per_night', rows: 10, present: 5, missing: 3, dropped: 2, unknown: 0, conflicting: 0, over: 'selected', droppedExample: '/data/docs/olive.txt' }], 'Hotels');
    expect(lines).toEqual([[
      { text: 'price_per_night: computed over 5 of the 10 hotels the query selects; 3 do not state it, 2 values were dropped as unsupported or invalid (' },
      { evidence: { column: 'price_per_night', document: '/data/docs/olive.txt' } },
      { text: ').' },
    ]]);
  });

  it('names a value far from the rest with a link to its evidence, as the CLI names it with srag why', () => {
    const lines = coverageLines([{
      column: 'price_per_night', rows: 50, present: 50, missing: 0, dropped: 0, unknown: 0, conflicting: 0, over: 'selected',
      outliers: [{ value: 6_700_000, document: '/data/docs/amber-arch.md', side: 'highest', next: 502, times: 13_365, why: 'srag why amber-arch.md price_per_night' }],
    }], 'Hotels');
    expect(lines).toEqual([[
      { text: 'price_per_night: the largest value, 6,700,000 (amber-arch.md), is 13,365 times the next largest, 502 (' },
      { evidence: { column: 'price_per_night', document: '/data/docs/amber-arch.md' } },
      { text: ').' },
    ]]);
  });

  it('says nothing when every value is there', () => {
    expect(coverageLines([{ column: 'price_per_night', rows: 10, present: 10, missing: 0, dropped: 0, unknown: 0, conflicting: 0, over: 'selected' }], 'Hotels')).toBeUndefined();
    expect(coverageLines(null, 'Hotels')).toBeUndefined();
  });
});

describe('what the page says beside an answer', () => {
  it('says "from cache" for an answer that made no model call, and the tokens of one that did', () => {
    expect(describeUsage({ calls: 0, promptTokens: 254, completionTokens: 2 })).toBe('from cache (no model call)');
    expect(describeUsage({ calls: 2, promptTokens: 1254, completionTokens: 20 })).toBe('2 model calls, 1,254 prompt + 20 completion tokens');
  });

  it('names the answer\'s tables as srag ask does, each a part the page links, with what made an imported one', () => {
    const cities = table('cities', [], { madeBy: 'srag import', importedFrom: 'examples/cities/cities.csv' });
    expect(tableChoiceParts(['hotels', 'cities'], [{ table: 'hotels', column: 'city', otherTable: 'cities', otherColumn: 'city' }], [hotels, cities])).toEqual([
      { text: 'Tables: ' }, { table: 'hotels' }, { text: ', ' }, { table: 'cities' }, { text: ' (imported from examples/cities/cities.csv)' },
      { text: '; join hotels.city = cities.city' },
    ]);
  });

  it('turns every kind of fix into choices to click, never only words', () => {
    expect(fixChoices({ kind: 'name-item', choices: ['rooms[1].price_per_night', 'rooms[2].price_per_night'] }).choices.map((choice) => choice.value)).toEqual(['rooms[1].price_per_night', 'rooms[2].price_per_night']);
    expect(fixChoices({ kind: 'name-table', choices: Array.from({ length: 20 }, (_, index) => `t${index}`) }).choices).toHaveLength(12);
    expect(fixChoices({ kind: 'extend-schema', question: 'q', table: 'hotels' }).choices).toEqual([{ label: expect.stringContaining('Add the missing attributes'), value: 'hotels' }]);
    expect(fixChoices({ kind: 'answer-from-sql' }).choices).toHaveLength(1);
  });
});
