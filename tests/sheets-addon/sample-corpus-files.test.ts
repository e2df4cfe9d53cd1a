import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../node/duckdb/duckdb-node-api.ts';
import { readGoldQuestions } from '../helpers/gold-questions.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// docs/sheets-addon.md has a first run import the hotels sample into the Documents sheet from
// sheets-addon/samples/ (examples/hotels/write-sheets-samples.ts writes both files).

const samples = join(repositoryRoot, 'sheets-addon/samples');
const pages = readdirSync(join(repositoryRoot, 'examples/hotels/docs')).sort();

describe('the Sheets add-on\'s sample files', () => {
  it('hotels-documents.csv is the Documents sheet of the hotels sample: source and text of every page, as a CSV reader reads it', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      // DuckDB's own CSV reader, as strict as a spreadsheet's import: quoted fields spanning lines, quotes doubled.
      const reader = await connection.runAndReadAll(`SELECT * FROM read_csv('${join(samples, 'hotels-documents.csv')}', header = true, quote = '"', escape = '"', delim = ',', all_varchar = true, max_line_size = 200000)`);
      expect(reader.columnNames()).toEqual(['source', 'text']);
      const rows = reader.getRowsJS() as string[][];
      expect(rows.map((row) => row[0])).toEqual(pages);
      for (const [source, text] of rows) expect(text, source).toBe(readFileSync(join(repositoryRoot, 'examples/hotels/docs', source!), 'utf8'));
      // A Sheets cell holds at most 50,000 characters.
      expect(Math.max(...rows.map((row) => row[1]!.length))).toBeLessThan(50_000);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('hotels-questions.txt holds the sample questions one per line, for the sidebar\'s Predict schema box', () => {
    expect(readFileSync(join(samples, 'hotels-questions.txt'), 'utf8')).toBe(`${readGoldQuestions('examples/hotels').map((question) => question.question).join('\n')}\n`);
  });
});
