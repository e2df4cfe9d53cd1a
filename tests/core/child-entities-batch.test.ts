import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordSchemaText, type DocumentSource } from '../../core/index.ts';
import { startLlmStandIn, type BatchSlip, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runWithBatchSlips } from '../helpers/run-with-batch-slips.ts';

/**
 * Short documents share a model call by default: each record of a batch reply carries its own
 * document's list of items, and a reply that mixes documents up is split without a room landing
 * under the wrong guesthouse.
 */

const corpus = 'examples/guesthouses';
const schema = parseRecordSchemaText(readFileSync(join(corpus, 'schema.json'), 'utf8'), 'schema.json');
type GoldEntry = { value: unknown };
const goldRecords = readFileSync(join(corpus, 'gold/records.jsonl'), 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line) as { document: string; children: { rooms: Array<Record<string, GoldEntry>> } });
const goldRooms = new Map(goldRecords.map((record) => [join(corpus, record.document),
  record.children.rooms.map((room) => Object.fromEntries(Object.entries(room).map(([name, entry]) => [name, entry.value])))]));
const documents: DocumentSource[] = [...goldRooms.keys()].map((source) => ({ source, read: async () => readFileSync(source, 'utf8') }));
let standIn: LlmStandIn;

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [corpus] });
});
afterAll(async () => {
  await standIn?.close();
});

async function ingest(batchSlips: BatchSlip[]) {
  const { summary, records, documentsPerCall } = await runWithBatchSlips({ standIn, schema, documents, batchSlips });
  const rooms = new Map([...records].map(([source, record]) => [source, (record.children?.rooms ?? []).map((room) => ({ ...room.values }))]));
  return { summary, rooms, documentsPerCall };
}

describe('child entities when documents share a call', () => {
  it('reads each document\'s rooms from its own record of a shared reply', async () => {
    const { summary, rooms, documentsPerCall } = await ingest([]);
    expect(summary).toMatchObject({ done: 8, failed: 0 });
    expect(Math.max(...documentsPerCall)).toBeGreaterThan(1);
    expect(rooms).toEqual(goldRooms);
  });

  it('stores every room under its own guesthouse when a batch reply gives two documents each other\'s record', async () => {
    const { summary, rooms, documentsPerCall } = await ingest(['swap-ids']);
    expect(summary).toMatchObject({ done: 8, failed: 0 });
    // The spoiled batch was split down to documents sent alone.
    expect(documentsPerCall.filter((count) => count === 1).length).toBeGreaterThan(0);
    expect(rooms).toEqual(goldRooms);
  });
});
