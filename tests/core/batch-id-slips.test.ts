import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordSchema, type DocumentSource } from '../../core/index.ts';
import { startLlmStandIn, type BatchSlip, type LlmStandIn, type ModelSlip } from '../helpers/llm-stand-in/index.ts';
import { runWithBatchSlips } from '../helpers/run-with-batch-slips.ts';

/**
 * Short documents share a model call by default; a real model then sometimes leaves a document
 * out, adds one, or gives two documents each other's record. The stand-in makes those slips in
 * every batch reply; srag must keep every true value and store nothing wrong.
 */

const corpus = 'examples/hotels';
const schema = parseRecordSchema(JSON.parse(readFileSync(join(corpus, 'schema.json'), 'utf8')));
const goldRecords = readFileSync(join(corpus, 'gold/records.jsonl'), 'utf8').trim().split('\n').slice(0, 12)
  .map((line) => JSON.parse(line) as { document: string; values: Record<string, { value: unknown }> });
const gold = new Map(goldRecords.map((record) => [join(corpus, record.document), Object.fromEntries(Object.entries(record.values).map(([name, entry]) => [name, entry.value]))]));
const documents: DocumentSource[] = [...gold.keys()].map((source) => ({ source, read: async () => readFileSync(source, 'utf8') }));
let standIn: LlmStandIn;

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [corpus] });
});
afterAll(async () => {
  await standIn?.close();
});

function ingest(batchSlips: BatchSlip[], withEvidence = true, slips: ModelSlip[] = []) {
  return runWithBatchSlips({ standIn, schema, documents, batchSlips, withEvidence, slips });
}

describe('batching by default, against a model that slips on ids', () => {
  it('sends the twelve short pages in a few shared calls and stores exactly the gold values', async () => {
    const { summary, records, documentsPerCall } = await ingest([]);
    expect(summary).toMatchObject({ done: 12, failed: 0 });
    expect(documentsPerCall.length).toBeLessThanOrEqual(3);
    expect(documentsPerCall.reduce((sum, count) => sum + count, 0)).toBe(12);
    for (const [source, values] of gold) expect({ source, values: { ...records.get(source)!.values } }).toEqual({ source, values });
  });

  for (const [slip, what] of [['drop-id', 'leaves a document out'], ['extra-id', 'adds a record for an id never sent'], ['swap-ids', 'gives two documents each other\'s record'], ['shift-ids', 'gives each document the next one\'s record']] as const) {
    it(`keeps every true value and stores nothing wrong when each batch reply ${what}`, async () => {
      const { summary, records, documentsPerCall } = await ingest([slip]);
      expect(summary).toMatchObject({ done: 12, failed: 0 });
      // The spoiled batches were split down to documents sent alone, which the slip cannot touch.
      expect(documentsPerCall[0]).toBeGreaterThan(1);
      expect(documentsPerCall.filter((count) => count === 1).length).toBeGreaterThan(0);
      for (const [source, values] of gold) {
        const stored = records.get(source)!;
        expect({ source, values: { ...stored.values } }).toEqual({ source, values });
        expect({ source, issues: stored.issues }).toEqual({ source, issues: [] });
      }
    });
  }
});

describe('batching without evidence (--no-evidence), against a model that mixes up ids', () => {
  it('sends the twelve short pages in a few shared calls and stores exactly the gold values, with no call split', async () => {
    const { summary, records, documentsPerCall } = await ingest([], false);
    expect(summary).toMatchObject({ done: 12, failed: 0 });
    expect(documentsPerCall).toEqual([12]);
    for (const [source, values] of gold) expect({ source, values: { ...records.get(source)!.values } }).toEqual({ source, values });
  });

  for (const [slip, what] of [['swap-ids', 'gives two documents each other\'s record'], ['shift-ids', 'gives each document the next one\'s record']] as const) {
    it(`catches every record of another document by its values when each reply ${what}, though it has no quotes, and stores each document's own values`, async () => {
      const { summary, records, documentsPerCall } = await ingest([slip], false);
      expect(summary).toMatchObject({ done: 12, failed: 0 });
      expect(documentsPerCall[0]).toBe(12);
      expect(documentsPerCall.filter((count) => count === 1).length).toBeGreaterThan(0);
      for (const [source, values] of gold) expect({ source, values: { ...records.get(source)!.values } }).toEqual({ source, values });
    });
  }

  it('does not take a model that misreads every value for one that mixes up ids: a value of another page found by chance splits no call', async () => {
    const { summary, records, documentsPerCall } = await ingest([], false, ['misread-values']);
    expect(summary).toMatchObject({ done: 12, failed: 0 });
    expect(documentsPerCall).toEqual([12]);
    // The misread values are stored as read (nothing checks them without quotes): the call was kept, not split.
    const [source, values] = [...gold][0]!;
    expect(records.get(source)!.values).not.toEqual(values);
  });
});
