import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordSchema, runExtraction, SragError } from '../../core/index.ts';
import { openSession } from '../../duckdb-udf/src/open-session.ts';
import { resolveDocuments } from '../../duckdb-udf/src/cli/resolve-documents.ts';
import { hashText } from '../../duckdb-udf/src/hash-text.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { readPromptPropertyNames } from '../helpers/llm-stand-in/read-prompt-property-names.ts';
import { runSrag } from '../helpers/run-srag.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-incremental-'));
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });
const goldSchema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8')) as { title: string; properties: Record<string, { description: string }> };
const leftOut = ['has_pool', 'has_airport_shuttle', 'pets_allowed'];

/** The hotels schema without some attributes, or with one description changed, written where the CLI reads it. */
function schemaFile(name: string, change: (properties: Record<string, { description: string }>) => void): string {
  const properties = structuredClone(goldSchema.properties);
  change(properties);
  const file = join(workDirectory, name);
  writeFileSync(file, JSON.stringify({ ...goldSchema, properties }));
  return file;
}

/** The attribute names each extraction request asked for. */
function requestedAttributes(): string[][] {
  return standIn.requests.filter((request) => request.kind === 'extract-record')
    .map((request) => readPromptPropertyNames(String(request.body.messages[0].content)) ?? []);
}

async function count(database: string, sql: string): Promise<unknown> {
  const run = await runSrag(['sql', '--db', database, '--json', '-c', sql]);
  return JSON.parse(run.stdout).rows[0][0];
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('column-level incremental extraction in srag ingest', () => {
  const database = join(workDirectory, 'hotels.duckdb');
  const withoutThree = schemaFile('without-three.schema.json', (properties) => leftOut.forEach((name) => delete properties[name]));

  it('extracts only the attributes added to the schema file, and nothing on a re-run', async () => {
    const first = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', withoutThree, '--db', database], { environment: environment() });
    expect(first.status, first.stderr).toBe(0);
    expect(requestedAttributes().every((names) => names.length === 11)).toBe(true);

    standIn.reset();
    const grown = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
    expect(grown.status, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('hotels: new attributes has_pool, has_airport_shuttle, pets_allowed: only they are extracted');
    expect(grown.stdout).toMatch(/^hotels: 50 done \(50 only new or changed attributes\)/);
    const requested = requestedAttributes();
    expect(requested).toHaveLength(50);
    expect(requested.every((names) => JSON.stringify(names) === JSON.stringify(['has_pool', 'has_airport_shuttle', 'pets_allowed']))).toBe(true);
    // The values already there stay; the new ones are the gold values.
    expect(await count(database, 'SELECT count(*) FROM hotels WHERE has_pool AND pets_allowed')).toBe(8);
    expect(await count(database, "SELECT count(*) FROM hotels WHERE city = 'Rome' AND star_rating = 4")).toBe(3);
    expect(await count(database, "SELECT count(*) FROM srag_evidence WHERE table_name = 'hotels' AND attribute = 'has_pool'")).toBe(50);

    standIn.reset();
    const again = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
    expect(again.stdout).toMatch(/^hotels: 0 done, 0 failed, 50 unchanged/);
    expect(standIn.requests).toHaveLength(0);
  });

  it('re-extracts one column when one attribute description changes, with no value of the old definition left', async () => {
    const changed = schemaFile('changed.schema.json', (properties) => {
      properties.review_count!.description += ' Count only the reviews the page states.';
    });
    standIn.reset();
    const run = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', changed, '--db', database], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('changed definition of review_count');
    expect(requestedAttributes()).toEqual(Array.from({ length: 50 }, () => ['review_count']));
    expect(await count(database, 'SELECT max(review_count) FROM hotels')).toBeGreaterThan(0);
  });

  it('keeps the columns and values of attributes a schema file no longer names', async () => {
    standIn.reset();
    const run = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', withoutThree, '--db', database], { environment: environment() });
    expect(run.stderr).toContain('keeps has_pool, has_airport_shuttle, pets_allowed');
    // This file has review_count's first description again: that column, and only it, is extracted again.
    expect(requestedAttributes()).toEqual(Array.from({ length: 50 }, () => ['review_count']));
    expect(await count(database, 'SELECT count(*) FROM hotels WHERE has_pool AND pets_allowed')).toBe(8);
  });

  it('resumes an interrupted back-fill without duplicate requests or rows', async () => {
    const resumed = join(workDirectory, 'resume.duckdb');
    // A part of the corpus is enough to interrupt and resume.
    const first = await runSrag(['ingest', 'examples/hotels/docs/s*', '--schema', withoutThree, '--db', resumed], { environment: environment() });
    expect(first.status, first.stderr).toBe(0);
    const schema = parseRecordSchema(goldSchema, 'hotels schema');
    const { documents } = await resolveDocuments(['examples/hotels/docs/s*']);
    expect(documents.length).toBeGreaterThan(5);
    const backfill = async (stopAfter: number) => {
      const session = await openSession(resumed, { environment: environment() });
      try {
        const change = await session.store.registerTable('hotels', schema);
        const store = session.store.extractionStore('hotels', change.schema);
        const cancellation = { aborted: false };
        let completed = 0;
        return await runExtraction({
          client: session.modelClient({ cache: store.responseCache }), prompts: session.prompts, schema: change.schema, documents, store, hashText,
          concurrency: 2, cancellation, onProgress: () => { completed += 1; if (completed >= stopAfter) cancellation.aborted = true; },
        }).catch((error: unknown) => error);
      } finally {
        session.close();
      }
    };
    standIn.reset();
    const stopped = await backfill(3);
    expect(SragError.isInstance(stopped) && stopped.code).toBe('CANCELLED');
    const before = requestedAttributes();
    const sourcesBefore = new Set(standIn.requests.map((request) => JSON.stringify(request.body.messages[1])));
    standIn.reset();
    const finished = await backfill(Number.POSITIVE_INFINITY);
    expect(before.length).toBeLessThan(documents.length);
    expect(finished).toMatchObject({ done: documents.length - before.length, unchanged: before.length });
    const after = standIn.requests.map((request) => JSON.stringify(request.body.messages[1]));
    expect(after.filter((message) => sourcesBefore.has(message))).toEqual([]);
    expect(before.length + after.length).toBe(documents.length);
    expect(await count(resumed, "SELECT count(*) FROM srag_evidence WHERE table_name = 'hotels' AND attribute = 'pets_allowed'")).toBe(documents.length);
    expect(await count(resumed, 'SELECT count(*) - count(DISTINCT _source) FROM hotels')).toBe(0);
  });
});
