import { describe, expect, it } from 'vitest';
import { ask } from '../../app/index.ts';
import { ModelClient, SragError, type ColumnStatistics } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { noTableExporter } from '../../sheets-addon/src/ask-ports/no-table-exporter.ts';
import { recordsRangeEngine } from '../../sheets-addon/src/ask-ports/records-range-engine.ts';
import { recordsRangeSnapshot } from '../../sheets-addon/src/ask-ports/records-range-snapshot.ts';
import { sheetsAskPorts } from '../../sheets-addon/src/ask-ports/sheets-ask-ports.ts';
import { cellMessage } from '../../sheets-addon/src/custom-functions/cell-message.ts';
import { recordsRangeTable } from '../../sheets-addon/src/custom-functions/records-range-table.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

const prompts = loadPromptLibrary();

/** A Records range as the add-on writes it: `_source`, the attributes, then the bookkeeping columns. */
const range = [
  ['_source', 'name', 'country', 'stars', '_status', '_error', '_content_hash'],
  ['a.md', 'Amber Arch', 'Spain', 4, 'done', '', 'h1'],
  ['b.md', 'Blue Door', 'Spain', '', 'done', 'stars: the quote does not occur in the document', 'h2'],
  ['c.md', 'Casa Azul', 'Portugal', 3, 'done', '', 'h3'],
  ['d.md', '', '', '', 'queued', '', ''],
];

function recordsOfRange() {
  return recordsRangeTable(range, new Map(), 'Hotels', 'UTC');
}

function portsFor(reply: string) {
  const model = createRecordingLanguageModel(reply);
  const records = recordsOfRange();
  const ports = sheetsAskPorts({
    client: new ModelClient({ languageModel: model.languageModel, sleep: async () => {} }),
    prompts,
    model: 'stand-in-model',
    records,
    table: 'hotels',
    engine: recordsRangeEngine(records, 'hotels'),
  });
  return { ports, requests: model.requests };
}

describe('the Sheets ports of the ask pipeline', () => {
  it('asks the records range as the one table there is, its rows\' statistics in the SQL prompt and its coverage counted from the cells', async () => {
    const { ports, requests } = portsFor(JSON.stringify({ sql: "SELECT AVG(stars) FROM hotels WHERE country = 'Spain'" }));
    const answer = await ask(ports, 'What is the average star rating of hotels in Spain?', { withAnswer: false });
    expect(answer).toMatchObject({ tables: ['hotels'], rows: [[4]], answer: '', path: 'sql' });
    expect(answer.chosen.map((table) => [table.name, table.madeBy])).toEqual([['hotels', 'srag ingest']]);
    // Only the three done rows count; of the two in Spain, one had its stars dropped (its _error names them).
    expect(answer.coverage).toEqual([
      expect.objectContaining({ column: 'country', over: 'table', reason: 'filtered', rows: 3, present: 3 }),
      expect.objectContaining({ column: 'stars', over: 'selected', rows: 2, present: 1, dropped: 1, missing: 0, droppedExample: 'b.md' }),
    ]);
    const system = requests[0]!.messages[0]!.content;
    expect(system).toContain('The table `hotels` holds');
    expect(system).toMatch(/"country".*Spain.*Portugal/s);
    expect(requests).toHaveLength(1);
  });

  it('keeps the statistics the engine would compute from the rows in the snapshot, so the prompt reads the same either way', async () => {
    const records = recordsOfRange();
    const snapshot = recordsRangeSnapshot(records, 'hotels');
    const computed = await recordsRangeEngine(records, 'hotels').computeStatistics('hotels', records.schema);
    expect(JSON.parse(snapshot.knownSchemas[0]!.statisticsJson!) as ColumnStatistics[]).toEqual(computed);
    expect(computed.find((column) => column.name === 'stars')).toMatchObject({ rowCount: 3, nonNullCount: 2, min: 3, max: 4 });
    await expect(recordsRangeEngine(records, 'hotels').computeStatistics('cities', records.schema)).rejects.toThrow('the records range is the table "hotels", not "cities"');
  });

  it('has an exporter that refuses every call: the range is read in memory, never exported', async () => {
    await expect(noTableExporter.exportTable('hotels', ['name'], '/tmp/x.parquet')).rejects.toThrow(/exportTable\("hotels"\).*never exported/);
    await expect(noTableExporter.exportEvidence({ name: 'hotels' }, ['name'], '/tmp/x.parquet')).rejects.toThrow(/exportEvidence\("hotels"\)/);
  });

  it('reports a question that needs a column the range lacks with the fix to grow the table, which the cell words in the add-on\'s terms', async () => {
    const { ports } = portsFor(JSON.stringify({ sql: '', missing_attributes: ['price_per_night'] }));
    const error = await ask(ports, 'How many hotels charge less than $150 per night?', { withAnswer: false }).catch((caught: unknown) => caught);
    expect(SragError.isInstance(error) && error.fix).toEqual({ kind: 'extend-schema', question: 'How many hotels charge less than $150 per night?' });
    expect(cellMessage(error, [])).toBe('⚠ srag: "How many hotels charge less than $150 per night?" needs an attribute the table "hotels" does not hold: price_per_night'
      + ' — add a row for each to the Schema sheet (attribute, type, description) and run Extensions › srag › Extract all rows, which extracts every document again for the new schema');
  });
});
