import { describe, expect, it } from 'vitest';
import { computeStatistics, distinctValueCap, renderStatistics } from '../../core/index.ts';
import { statisticsSchema } from '../helpers/statistics-schema.ts';

const schema = statisticsSchema;

const rows = [
  { price: 100, rooms: 0, opened_on: '2011-03-05', city: 'Paris', has_pool: true },
  { price: 250.5, rooms: 12, opened_on: '1999-12-31', city: 'Rome', has_pool: false },
  { price: null, rooms: 30, opened_on: null, city: 'Paris', has_pool: true },
  { price: 0, rooms: null, opened_on: '2020-01-01', city: 'Berlin', has_pool: null },
  { price: 60, rooms: 8, opened_on: '2005-06-15', city: 'Paris', has_pool: true },
];

const column = (name: string, statistics = computeStatistics(schema, rows)) => statistics.find((entry) => entry.name === name)!;

describe('computeStatistics', () => {
  it('gives one entry per schema attribute, in schema order', () => {
    expect(computeStatistics(schema, rows).map((entry) => [entry.name, entry.kind])).toEqual([
      ['price', 'number'], ['rooms', 'integer'], ['opened_on', 'date'], ['city', 'string'], ['has_pool', 'boolean'],
    ]);
  });

  it('gives numbers min, max, mean, non-null and non-zero counts', () => {
    expect(column('price')).toEqual({ name: 'price', kind: 'number', rowCount: 5, nonNullCount: 4, nonZeroCount: 3, min: 0, max: 250.5, mean: 102.625 });
    expect(column('rooms')).toMatchObject({ nonNullCount: 4, nonZeroCount: 3, min: 0, max: 30, mean: 12.5 });
  });

  it('gives dates their earliest and latest value', () => {
    expect(column('opened_on')).toEqual({ name: 'opened_on', kind: 'date', rowCount: 5, nonNullCount: 4, min: '1999-12-31', max: '2020-01-01' });
  });

  it('lists string values with counts, most frequent first, ties alphabetically', () => {
    expect(column('city')).toMatchObject({
      nonNullCount: 5,
      distinctCount: 3,
      values: [{ value: 'Paris', count: 3 }, { value: 'Berlin', count: 1 }, { value: 'Rome', count: 1 }],
    });
  });

  it('lists boolean values with counts and leaves out nulls', () => {
    expect(column('has_pool')).toMatchObject({
      nonNullCount: 4,
      distinctCount: 2,
      values: [{ value: true, count: 3 }, { value: false, count: 1 }],
    });
  });

  it('caps the listed distinct values at distinctValueCap while distinctCount keeps the full count', () => {
    const many = Array.from({ length: distinctValueCap + 20 }, (_, index) => ({ city: `city-${String(index).padStart(3, '0')}` }));
    many.push({ city: 'city-069' }, { city: 'city-069' });
    const statistics = column('city', computeStatistics(schema, many));
    expect(statistics.distinctCount).toBe(distinctValueCap + 20);
    expect(statistics.values).toHaveLength(distinctValueCap);
    expect(statistics.values![0]).toEqual({ value: 'city-069', count: 3 });
  });

  it('holds past the size where a spread into Math.min overflowed the stack (300,000 rows)', () => {
    const many = Array.from({ length: 300_000 }, (_, index) => ({ price: index % 1000, rooms: index, opened_on: `20${String(10 + (index % 10))}-01-01`, city: `c${index % 7}` }));
    const statistics = computeStatistics(schema, many);
    expect(column('price', statistics)).toMatchObject({ min: 0, max: 999, nonZeroCount: 299_700, mean: 499.5 });
    expect(column('rooms', statistics)).toMatchObject({ min: 0, max: 299_999 });
    expect(column('opened_on', statistics)).toMatchObject({ min: '2010-01-01', max: '2019-01-01' });
    expect(column('city', statistics).distinctCount).toBe(7);
  });

  it('keeps listed values short: a whole page in one cell is stored cut to 200 characters', () => {
    const page = 'x'.repeat(5000);
    expect(column('city', computeStatistics(schema, [{ city: page }])).values).toEqual([{ value: `${'x'.repeat(200)}…`, count: 1 }]);
  });

  it('orders equally frequent values by code unit, not locale, so that every engine agrees', () => {
    const statistics = column('city', computeStatistics(schema, [{ city: 'berlin' }, { city: 'Zagreb' }, { city: 'Äpfel' }]));
    expect(statistics.values!.map((entry) => entry.value)).toEqual(['Zagreb', 'berlin', 'Äpfel']);
  });

  it('describes an all-null column without min, max or mean', () => {
    const statistics = computeStatistics(schema, [{ price: null, opened_on: null, city: null, has_pool: null }, {}]);
    expect(column('price', statistics)).toEqual({ name: 'price', kind: 'number', rowCount: 2, nonNullCount: 0, nonZeroCount: 0 });
    expect(column('opened_on', statistics)).toEqual({ name: 'opened_on', kind: 'date', rowCount: 2, nonNullCount: 0 });
    expect(column('city', statistics)).toMatchObject({ nonNullCount: 0, distinctCount: 0, values: [] });
  });

  it('describes an empty table with zero counts', () => {
    const statistics = computeStatistics(schema, []);
    expect(statistics).toHaveLength(5);
    for (const entry of statistics) {
      expect(entry.rowCount).toBe(0);
      expect(entry.nonNullCount).toBe(0);
      expect(entry.min).toBeUndefined();
    }
  });
});

describe('renderStatistics', () => {
  it('mentions every column with its counts, range, mean and listed values', () => {
    const text = renderStatistics(computeStatistics(schema, rows));
    const lines = text.split('\n');
    expect(lines).toHaveLength(5);
    for (const name of ['price', 'rooms', 'opened_on', 'city', 'has_pool']) expect(text).toContain(`"${name}"`);
    expect(lines[0]).toBe('- "price": 4 of 5 rows non-null; 3 non-zero; min 0; max 250.5; mean 102.625');
    expect(lines[2]).toBe('- "opened_on": 4 of 5 rows non-null; min 1999-12-31; max 2020-01-01');
    expect(lines[3]).toBe('- "city": 5 of 5 rows non-null; 3 distinct: "Paris" (3), "Berlin" (1), "Rome" (1)');
    expect(lines[4]).toBe('- "has_pool": 4 of 5 rows non-null; 2 distinct: true (3), false (1)');
  });

  it('says how many distinct values were left out', () => {
    const many = Array.from({ length: distinctValueCap + 7 }, (_, index) => ({ city: `c${index}` }));
    const text = renderStatistics(computeStatistics(schema, many));
    expect(text).toContain(`${distinctValueCap + 7} distinct:`);
    expect(text).toContain('… 7 more');
  });

  it('shortens very long string values', () => {
    const paragraph = 'A very long description of the neighbourhood. '.repeat(20);
    const text = renderStatistics(computeStatistics(schema, [{ city: paragraph }]));
    expect(text).not.toContain(paragraph.trim());
    expect(text).toContain(`"${paragraph.slice(0, 80)}…"`);
    const cityLine = text.split('\n').find((line) => line.startsWith('- "city"'))!;
    expect(cityLine.length).toBeLessThan(150);
  });

  it('renders an empty table as one line per column', () => {
    const text = renderStatistics(computeStatistics(schema, []));
    const lines = text.split('\n');
    expect(lines).toHaveLength(5);
    ['price', 'rooms', 'opened_on', 'city', 'has_pool'].forEach((name, index) => {
      expect(lines[index]!.startsWith(`- "${name}": 0 of 0 rows non-null`)).toBe(true);
      expect(lines[index]).not.toMatch(/min|max|mean/);
    });
  });
});
