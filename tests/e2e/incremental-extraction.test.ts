import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseRecordSchema, runExtraction, SragError } from '../../core/index.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { openSession } from '../../node/session/open-session.ts';
import { resolveDocuments } from '../../node/runtime/resolve-documents.ts';
import { hashText } from '../../node/runtime/hash-text.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { queryDatabaseFile as query } from '../helpers/query-database-file.ts';
import { requestedAttributesPerDocument } from '../helpers/requested-attributes.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-incremental-'));
const goldSchema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8')) as { title: string; properties: Record<string, { description: string }> };
const goldRecords = readFileSync('examples/hotels/gold/records.jsonl', 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line) as { document: string; values: Record<string, { value: unknown } | null> });
const leftOut = ['has_pool', 'has_airport_shuttle', 'pets_allowed'];
/** Eight pages of the sample: enough to see which columns each request carries. */
const documents = 'examples/hotels/docs/c*';
const documentCount = 8;

/** The hotels schema without some attributes, or with one description changed, written where the CLI reads it. */
function schemaFile(name: string, change: (properties: Record<string, { description: string }>) => void): string {
  const properties = structuredClone(goldSchema.properties);
  change(properties);
  const file = join(workDirectory, name);
  writeFileSync(file, JSON.stringify({ ...goldSchema, properties }));
  return file;
}

/** Per document sent to the model, the attribute names its request asked for. */
const requestedAttributes = () => requestedAttributesPerDocument(standIn.requests);

const ingest = (schema: string, database: string) => runCommandInProcess((signal) => ingestCommand([documents], { schema, db: database, evidence: true }, signal));

/** Per document of the subset: the gold values of `attributes`, as the table should hold them. */
function goldValues(attributes: string[]): unknown[][] {
  return goldRecords.filter((record) => basename(record.document).startsWith('c'))
    .map((record) => [basename(record.document), ...attributes.map((name) => record.values[name]?.value ?? null)])
    .sort((left, right) => String(left[0]).localeCompare(String(right[0])));
}

async function tableValues(database: string, attributes: string[]): Promise<unknown[][]> {
  const rows = await query(database, `SELECT _source, ${attributes.join(', ')} FROM hotels`);
  return rows.map(([source, ...values]) => [basename(String(source)), ...values.map((value) => (typeof value === 'bigint' ? Number(value) : value))]).sort((left, right) => String(left[0]).localeCompare(String(right[0])));
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  vi.stubEnv('OPENAI_BASE_URL', standIn.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
  vi.stubEnv('SRAG_CONCURRENCY', '4');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await standIn.close();
});

describe('column-level incremental extraction in srag ingest', () => {
  const database = join(workDirectory, 'hotels.duckdb');
  const withoutThree = schemaFile('without-three.schema.json', (properties) => leftOut.forEach((name) => delete properties[name]));

  it('extracts only the attributes added to the schema file, and nothing on a re-run', async () => {
    const first = await ingest(withoutThree, database);
    expect(first.status, first.stderr).toBe(0);
    expect(requestedAttributes()).toHaveLength(documentCount);
    expect(requestedAttributes().every((names) => names.length === 11)).toBe(true);

    standIn.reset();
    const grown = await ingest('examples/hotels/schema.json', database);
    expect(grown.status, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('hotels: new attributes has_pool, has_airport_shuttle, pets_allowed: only they are extracted');
    expect(grown.stdout).toMatch(new RegExp(`^hotels: ${documentCount} done \\(${documentCount} only new or changed attributes\\)`));
    expect(requestedAttributes()).toEqual(Array.from({ length: documentCount }, () => ['has_pool', 'has_airport_shuttle', 'pets_allowed']));
    // The values already there stay; the new ones are the gold values, each with its evidence.
    expect(await tableValues(database, ['city', 'star_rating', ...leftOut])).toEqual(goldValues(['city', 'star_rating', ...leftOut]));
    expect(await query(database, "SELECT count(*) FROM srag_evidence WHERE table_name = 'hotels' AND attribute = 'has_pool'")).toEqual([[BigInt(documentCount)]]);

    standIn.reset();
    const again = await ingest('examples/hotels/schema.json', database);
    expect(again.stdout).toMatch(new RegExp(`^hotels: 0 done, 0 failed, ${documentCount} unchanged`));
    expect(standIn.requests).toHaveLength(0);
  });

  it('re-extracts one column when one attribute description changes, with no value of the old definition left', async () => {
    const changed = schemaFile('changed.schema.json', (properties) => {
      properties.review_count!.description += ' Count only the reviews the page states.';
    });
    standIn.reset();
    const run = await ingest(changed, database);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('changed definition of review_count');
    expect(requestedAttributes()).toEqual(Array.from({ length: documentCount }, () => ['review_count']));
    expect(await tableValues(database, ['review_count', 'has_pool'])).toEqual(goldValues(['review_count', 'has_pool']));
  });

  it('keeps the columns and values of attributes a schema file no longer names', async () => {
    standIn.reset();
    const run = await ingest(withoutThree, database);
    expect(run.stderr).toContain('keeps has_pool, has_airport_shuttle, pets_allowed');
    // This file has review_count's first description again: that column, and only it, is extracted again.
    expect(requestedAttributes()).toEqual(Array.from({ length: documentCount }, () => ['review_count']));
    expect(await tableValues(database, leftOut)).toEqual(goldValues(leftOut));
  });

  it('resumes an interrupted back-fill without duplicate requests or rows', async () => {
    const resumed = join(workDirectory, 'resume.duckdb');
    expect((await ingest(withoutThree, resumed)).status).toBe(0);
    const schema = parseRecordSchema(goldSchema, 'hotels schema');
    const { documents: sources } = await resolveDocuments([documents]);
    const backfill = async (stopAfter: number) => {
      const session = await openSession(resumed);
      try {
        const change = await session.store.registerTable('hotels', schema);
        const store = session.store.extractionStore('hotels', change.schema);
        const cancellation = { aborted: false };
        let completed = 0;
        return await runExtraction({
          client: session.modelClient({ cache: store.responseCache }), prompts: session.prompts, schema: change.schema, documents: sources, store, hashText,
          concurrency: 2, batchSize: 1, cancellation, onProgress: () => { completed += 1; if (completed >= stopAfter) cancellation.aborted = true; },
        }).catch((error: unknown) => error);
      } finally {
        session.close();
      }
    };
    standIn.reset();
    // Replies slower than a commit, as a real endpoint's: the run reports a document done once it
    // is committed, and an ingest's commits wait for company, so with instant replies every call
    // of these 8 documents was made before the third was reported. At 150 ms that happened too
    // once, in a full suite on a slow machine: the third report waits for a commit, which then has
    // a round of replies to land in before the last calls go out, 400 ms now where it had 150.
    standIn.setOptions({ latencyMs: 400 });
    const stopped = await backfill(3).finally(() => standIn.setOptions({ latencyMs: 0 }));
    expect(SragError.isInstance(stopped) && stopped.code).toBe('CANCELLED');
    const before = requestedAttributes();
    const sourcesBefore = new Set(standIn.requests.map((request) => JSON.stringify(request.body.messages[1])));
    standIn.reset();
    const finished = await backfill(Number.POSITIVE_INFINITY);
    expect(before.length).toBeLessThan(documentCount);
    expect(finished).toMatchObject({ done: documentCount - before.length, unchanged: before.length });
    const after = standIn.requests.map((request) => JSON.stringify(request.body.messages[1]));
    expect(after.filter((message) => sourcesBefore.has(message))).toEqual([]);
    expect(before.length + after.length).toBe(documentCount);
    expect(await query(resumed, "SELECT count(*) FROM srag_evidence WHERE table_name = 'hotels' AND attribute = 'pets_allowed'")).toEqual([[BigInt(documentCount)]]);
    expect(await query(resumed, 'SELECT count(*) - count(DISTINCT _source) FROM hotels')).toEqual([[0n]]);
    expect(await tableValues(resumed, leftOut)).toEqual(goldValues(leftOut));
  });
});
