import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodePointClasses } from '../../records-sql/unicode/code-point-classes.ts';
import { convertCase } from '../../records-sql/unicode/convert-case.ts';
import { graphemeBreakTable } from '../../records-sql/unicode/grapheme-break-table.ts';
import { graphemeClusters } from '../../records-sql/unicode/grapheme-clusters.ts';
import { BothEngines } from './helpers/both-engines.ts';
import { readCaseMappings, readGraphemeClassLetters } from './helpers/duckdb-unicode-properties.ts';

/**
 * records-sql's Unicode tables (records-sql/unicode/, written from DuckDB by
 * tests/records-sql/helpers/write-unicode-tables.ts) checked against the DuckDB this repository
 * pins, over the code points where they can differ, and the grapheme splitting over generated text.
 */
let connection: DuckDBConnection;
let engines: BothEngines;

beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  engines = await BothEngines.open();
});

afterAll(() => {
  connection.closeSync();
  engines.close();
});

/** Code points as SQL giving column `i` (surrogates left out: DuckDB's chr() refuses them). */
const codePointsSql = (points: number[]) => `SELECT unnest([${points.filter((point) => point < 0xd800 || point > 0xdfff).join(',')}])::INTEGER AS i`;

describe('records-sql/unicode against DuckDB', () => {
  it('maps upper() and lower() of every code point in planes 0 and 1 (where all cased letters are) as DuckDB does', async () => {
    const { upper, lower } = await readCaseMappings(connection, 'SELECT range::INTEGER AS i FROM range(0, 55296) UNION ALL SELECT range::INTEGER FROM range(57344, 131072)');
    expect(upper.size).toBeGreaterThan(1400);
    const differences: string[] = [];
    for (let point = 0; point < 0x20000; point += 1) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const character = String.fromCodePoint(point);
      const expected = [String.fromCodePoint(upper.get(point) ?? point), String.fromCodePoint(lower.get(point) ?? point)];
      const actual = [convertCase(`é${character}`, 'upper').slice(1), convertCase(`é${character}`, 'lower').slice(1)];
      if (actual[0] !== expected[0] || actual[1] !== expected[1]) differences.push(`U+${point.toString(16)}: ${JSON.stringify(actual)} against ${JSON.stringify(expected)}`);
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });

  it('classes for grapheme clusters every code point the table names, its run boundaries and a sample of the rest as DuckDB does', async () => {
    const table = new CodePointClasses(graphemeBreakTable);
    const runs = graphemeBreakTable.split(',').map((run) => ({ start: parseInt(run.slice(0, -1), 36), letter: run.slice(-1) }));
    // Each run's first code point and the one before it, every code point of a run not 'o' (the
    // first 400 of a long one), and every 89th code point of the rest.
    const points = new Set<number>();
    runs.forEach(({ start, letter }, index) => {
      points.add(start);
      if (start > 0) points.add(start - 1);
      const end = Math.min(runs[index + 1]?.start ?? 0x110000, start + 400);
      if (letter !== 'o') for (let point = start; point < end; point += 1) points.add(point);
    });
    for (let point = 0; point < 0x110000; point += 89) points.add(point);
    const letters = await readGraphemeClassLetters(connection, codePointsSql([...points]));
    const differences = [...points].filter((point) => (point < 0xd800 || point > 0xdfff) && table.classOf(point) !== (letters.get(point) ?? 'o'));
    expect(points.size).toBeGreaterThan(15_000);
    expect(differences.slice(0, 10).map((point) => `U+${point.toString(16)}: ${table.classOf(point)} against ${letters.get(point) ?? 'o'}`)).toEqual([]);
  });

  it('splits 2,000 generated texts into grapheme clusters as DuckDB does (reverse keeps each whole)', async () => {
    // One code point of each class the rules tell apart, in every order: marks, joiners, jamo, flags, conjuncts, controls.
    const pieces = [0x61, 0xe9, 0x301, 0x200d, 0x1f600, 0x1f3fd, 0x1f1e6, 0x1f1eb, 0x915, 0x94d, 0x937, 0x93f, 0x1100, 0x1161, 0x11a8, 0xac00, 0xac01, 0x600, 0xd, 0xa, 0x9, 0xe33, 0x102b, 0xfe0f, 0x2764, 0x378, 0xe0020, 0xe007f, 0x1f3f4, 0x85, 0xad];
    const texts = fc.sample(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }).map((codes) => `é${String.fromCodePoint(...codes)}`), { seed: 42, numRuns: 2000 });
    await engines.load({ table: 'texts', records: { columns: [{ name: 'id', type: 'BIGINT' }, { name: 'body', type: 'VARCHAR' }], rows: texts.map((text, index) => [index, text]) }, questions: [] });
    const { duckdb } = await engines.run('SELECT id, reverse(body) FROM texts ORDER BY id');
    if (!('rows' in duckdb)) throw new Error(duckdb.error);
    const differences = duckdb.rows.filter(([id, reversed]) => graphemeClusters(texts[id as number]!).reverse().join('') !== reversed);
    expect(differences.slice(0, 5).map(([id]) => JSON.stringify(texts[id as number]))).toEqual([]);
  });
});
