import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordSchemaText, type RecordSchema, type SqlValue } from '../../core/index.ts';
import { importTable } from '../../node/duckdb/catalog/import-table.ts';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { ingestDocuments } from '../../node/session/ingest-documents.ts';
import { openSession } from '../../node/session/open-session.ts';
import { explainValue } from '../../node/duckdb/explain-value.ts';
import { readTableStats } from '../../node/duckdb/read-table-stats.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { requestedAttributesPerDocument } from '../helpers/requested-attributes.ts';
import { readGoldQuestions, rowsMatchGold, type GoldQuestion } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// The guesthouses sample: each document lists its rooms, which a schema's "entities" section turns
// into a table of their own (`guesthouses__rooms`) keyed to the document's row.

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-child-entities-'));
const database = join(workDirectory, 'guesthouses.duckdb');
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' });
const schemaFile = join(repositoryRoot, 'examples/guesthouses/schema.json');
const schema = parseRecordSchemaText(readFileSync(schemaFile, 'utf8'), schemaFile);

type TableQuestion = GoldQuestion & { tables: string[]; gold: SqlValue | SqlValue[] | SqlValue[][] };
const questions = readGoldQuestions('examples/guesthouses') as TableQuestion[];

/** Whole rows for a gold of rows, else the first column as `rowsMatchGold` compares it. */
function matchesGold(rows: SqlValue[][], gold: TableQuestion['gold']): boolean {
  if (Array.isArray(gold) && (gold as unknown[]).every((row) => Array.isArray(row))) return JSON.stringify(rows) === JSON.stringify(gold);
  return rowsMatchGold(rows, gold as SqlValue | SqlValue[]);
}

/** The tables a SQL prompt describes. */
function promptTables(prompt: string): string[] {
  return [...prompt.matchAll(/^The table `([^`]+)` holds/gm)].map((match) => match[1]!).sort();
}

/** Rows of one query on the file at `path`, whole numbers as numbers. */
async function query(path: string, sql: string): Promise<SqlValue[][]> {
  const store = await SragStore.open(path);
  try {
    return (await store.connection.runAndReadAll(sql)).getRowsJS().map((row) => row.map((cell) => (typeof cell === 'bigint' ? Number(cell) : cell as SqlValue)));
  } finally {
    store.close();
  }
}

/** `srag ingest` in process (what the CLI runs), for the tests whose subject is not the CLI. */
async function ingest(path: string, documents: string[], withSchema: RecordSchema = schema) {
  const session = await openSession(path, { environment: environment() });
  try {
    return (await ingestDocuments(session, {
      documents: documents.map((source) => ({ source, read: async () => readFileSync(source, 'utf8') })),
      schema: withSchema, table: 'guesthouses', retryHint: 'rerun', withEvidence: true,
    })).summary;
  } finally {
    session.close();
  }
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/guesthouses', 'examples/cities'] });
  const ingested = await runSragInProcess(['ingest', 'examples/guesthouses/docs', '--schema', 'examples/guesthouses/schema.json', '--db', database], { environment: environment() });
  expect(ingested.status, ingested.stderr).toBe(0);
  const session = await openSession(database);
  try {
    await session.store.exclusive((connection) => importTable(connection, { file: join(repositoryRoot, 'examples/cities/cities.csv'), databasePath: database }));
  } finally {
    session.close();
  }
}, 120_000);
afterAll(async () => {
  await standIn?.close();
});

describe('a schema with a child entity', () => {
  it('fills the child table from the same calls, several documents to a call: one row per listed room, keyed to its document and numbered in order', async () => {
    const documentsPerCall = standIn.requests.filter((request) => request.kind.startsWith('extract-record'))
      .map((request) => (request.kind === 'extract-record-batch' ? String(request.body.messages[1].content).match(/^<document id="/gm)!.length : 1));
    expect(documentsPerCall.reduce((sum, count) => sum + count, 0)).toBe(8);
    expect(Math.max(...documentsPerCall)).toBeGreaterThan(1);
    const rooms = await query(database, `SELECT regexp_extract(_source, '[^/]+$'), _position, room_type, price_per_night, sleeps FROM guesthouses__rooms
      WHERE _source LIKE '%casa-azul%' ORDER BY _position`);
    expect(rooms).toEqual([
      ['casa-azul-guesthouse.md', 1, 'Single Room', 60, 1],
      ['casa-azul-guesthouse.md', 2, 'Double Room', 95, 2],
      ['casa-azul-guesthouse.md', 3, 'Family Suite', 160, 4],
    ]);
    expect(await query(database, 'SELECT count(*), count(DISTINCT _source) FROM guesthouses__rooms')).toEqual([[19, 8]]);
    // Every item's _source is a document's row: the child table has no orphans.
    expect(await query(database, 'SELECT count(*) FROM guesthouses__rooms r ANTI JOIN guesthouses g ON g._source = r._source')).toEqual([[0]]);
  });

  it('answers questions joining documents and their rooms exactly with srag ask, naming no table, and shows the SQL prompt only the tables needed with the join key', async () => {
    standIn.reset();
    const asked = await runSragInProcess(['ask', ...questions.map((question) => question.question), '--db', database, '--json'], { environment: environment() });
    expect(asked.status, asked.stderr).toBe(0);
    const answers = asked.stdout.trim().split('\n').map((line) => JSON.parse(line) as { tables: string[]; rows: SqlValue[][]; joins: unknown[] });
    const prompts = standIn.requests.filter((request) => request.kind === 'generate-sql').map((request) => String(request.body.messages[0].content));
    expect(answers).toHaveLength(questions.length);
    questions.forEach((question, index) => {
      expect({ question: question.question, tables: [...answers[index]!.tables].sort() }).toEqual({ question: question.question, tables: [...question.tables].sort() });
      expect(matchesGold(answers[index]!.rows, question.gold), `${question.question}: ${JSON.stringify(answers[index]!.rows)}`).toBe(true);
      expect(promptTables(prompts[index]!), question.question).toEqual([...question.tables].sort());
    });
    const perStar = prompts[0]!;
    expect(perStar).toContain('The table `guesthouses__rooms` holds the rooms each document of `guesthouses` lists, one row per item: Every room type the guesthouse lists, each with its own price; one item per room type.');
    expect(perStar).toContain('- "_position" INTEGER: the item\'s place in the document\'s list, from 1');
    expect(perStar).toContain('- "guesthouses__rooms"."_source" = "guesthouses"."_source" (every distinct "_source" values occur in "guesthouses"."_source"; "guesthouses"."_source" is unique)');
    expect(answers[0]!.joins).toEqual([{ table: 'guesthouses__rooms', column: '_source', otherTable: 'guesthouses', otherColumn: '_source' }]);
  }, 60_000);

  it('srag why shows the quote behind one room\'s price, and names the items when none is named', async () => {
    const store = await SragStore.open(database);
    const refusal = (attribute: string, table?: string) => explainValue(store.connection, { document: 'casa-azul', attribute, table, database })
      .then(() => 'explained', (error: { message: string; hint?: string }) => `${error.message} — ${error.hint}`);
    try {
      const explained = await explainValue(store.connection, { document: 'casa-azul', attribute: 'rooms[2].price_per_night', database });
      expect(explained).toMatchObject({ table: 'guesthouses__rooms', value: '95', raw: 'USD 95', quote: 'Double Room: USD 95 per night, sleeps 2', status: 'supported' });
      // No --table needed beside the cities table: only the guesthouses (with their rooms) hold these names.
      expect(await explainValue(store.connection, { document: 'casa-azul', attribute: 'star_rating', database })).toMatchObject({ table: 'guesthouses', value: '3' });
      // The imported cities table has a city column too, but keeps no evidence: the guesthouses' is the one meant.
      expect(await explainValue(store.connection, { document: 'casa-azul', attribute: 'city', database })).toMatchObject({ table: 'guesthouses', value: 'Porto' });
      const items = 'one of: rooms[1].price_per_night, rooms[2].price_per_night, rooms[3].price_per_night';
      expect(await refusal('price_per_night')).toBe(`table guesthouses__rooms holds one "price_per_night" per item of a document: name the item — ${items}`);
      expect(await refusal('price_per_night', 'guesthouses__rooms')).toBe(`table guesthouses__rooms holds one "price_per_night" per item of a document: name the item — ${items}`);
      expect(await refusal('rooms[7].sleeps')).toBe('the document has 3 items in guesthouses__rooms, not "rooms[7].sleeps" — one of: rooms[1].sleeps, rooms[2].sleeps, rooms[3].sleeps');
    } finally {
      store.close();
    }
  });

  it('srag stats shows the documents\' table with its rooms\' table, and says whose items a child table holds', async () => {
    const store = await SragStore.open(database);
    try {
      const parent = await readTableStats(store.connection, 'guesthouses', database);
      expect(parent).toMatchObject({ table: 'guesthouses', rows: 8, children: [{ entity: 'rooms', table: 'guesthouses__rooms', rows: 19 }] });
      expect(parent.parent).toBeUndefined();
      const child = await readTableStats(store.connection, 'guesthouses__rooms', database);
      expect(child).toMatchObject({ table: 'guesthouses__rooms', rows: 19, parent: { table: 'guesthouses', entity: 'rooms' } });
      expect(child.children).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('re-ingesting a changed document replaces its rooms (no duplicates, no orphans); unchanged ones cost no call; a failed one adds no rooms', async () => {
    const copy = join(workDirectory, 'copy');
    cpSync(join(repositoryRoot, 'examples/guesthouses/docs'), copy, { recursive: true });
    const copyDatabase = join(workDirectory, 'copy.duckdb');
    const documents = ['casa-azul-guesthouse.md', 'ribeira-view-guesthouse.md', 'tejo-garden-guesthouse.txt'].map((name) => join(copy, name));
    expect((await ingest(copyDatabase, documents)).done).toBe(3);
    // One corpus with its rooms: its documents' table is the one a command without --table means.
    const copyStore = await SragStore.open(copyDatabase);
    try {
      expect((await copyStore.tableInfo()).table).toBe('guesthouses');
    } finally {
      copyStore.close();
    }
    const casaAzul = documents[0]!;
    // The Double Room is no longer offered: the document now lists two rooms.
    writeFileSync(casaAzul, readFileSync(casaAzul, 'utf8').replace('- Double Room: USD 95 per night, sleeps 2\n', ''));
    const broken = join(copy, 'broken-guesthouse.md');
    writeFileSync(broken, `${readFileSync(documents[1]!, 'utf8')}\nSTAND-IN: GARBAGE\n`.replace('Ribeira View', 'Broken Ribeira'));
    standIn.reset();
    const summary = await ingest(copyDatabase, [...documents, broken]);
    expect({ done: summary.done, unchanged: summary.unchanged, failed: summary.failed }).toEqual({ done: 1, unchanged: 2, failed: 1 });
    expect(await query(copyDatabase, `SELECT room_type, _position FROM guesthouses__rooms WHERE _source = '${casaAzul}' ORDER BY _position`)).toEqual([['Single Room', 1], ['Family Suite', 2]]);
    expect(await query(copyDatabase, `SELECT count(*) FROM guesthouses__rooms WHERE _source = '${broken}'`)).toEqual([[0]]);
    expect(await query(copyDatabase, 'SELECT count(*) FROM guesthouses__rooms')).toEqual([[6]]);
    expect(await query(copyDatabase, `SELECT attribute FROM srag_evidence WHERE table_name = 'guesthouses__rooms' AND source = '${casaAzul}' AND attribute LIKE 'room_type%' ORDER BY attribute`))
      .toEqual([['room_type[1]'], ['room_type[2]']]);
  }, 60_000);

  it('a grown schema extracts only its new attribute and leaves every document\'s rooms and their evidence as they were; the table keeps its entity', async () => {
    const grownDatabase = join(workDirectory, 'grown.duckdb');
    const documents = ['casa-azul-guesthouse.md', 'ribeira-view-guesthouse.md'].map((name) => join(repositoryRoot, 'examples/guesthouses/docs', name));
    await ingest(grownDatabase, documents);
    const rooms = 'SELECT _source, _position, room_type, price_per_night FROM guesthouses__rooms ORDER BY _source, _position';
    const roomEvidence = "SELECT source, attribute, quote FROM srag_evidence WHERE table_name = 'guesthouses__rooms' ORDER BY source, attribute";
    const [roomsBefore, evidenceBefore] = [await query(grownDatabase, rooms), await query(grownDatabase, roomEvidence)];
    expect(roomsBefore.length).toBeGreaterThan(0);
    standIn.reset();
    const grown: RecordSchema = { ...schema, attributes: [...schema.attributes, { name: 'has_breakfast', kind: 'boolean', description: 'Whether breakfast is included in the price.', examples: [true] }] };
    expect((await ingest(grownDatabase, documents, grown)).done).toBe(2);
    expect(requestedAttributesPerDocument(standIn.requests)).toEqual([['has_breakfast'], ['has_breakfast']]);
    expect(await query(grownDatabase, rooms)).toEqual(roomsBefore);
    expect(await query(grownDatabase, roomEvidence)).toEqual(evidenceBefore);
    const store = await SragStore.open(grownDatabase);
    try {
      expect((await store.tableInfo('guesthouses')).schema.entities?.map((entity) => entity.name)).toEqual(['rooms']);
    } finally {
      store.close();
    }
  }, 60_000);

  it('a renamed document keeps its rooms and their evidence under its new path, with no call and nothing left under the old one', async () => {
    const movedDatabase = join(workDirectory, 'moved.duckdb');
    const copies = ['casa-azul-guesthouse.md', 'ribeira-view-guesthouse.md'].map((name) => {
      const copy = join(workDirectory, `moved-${name}`);
      cpSync(join(repositoryRoot, 'examples/guesthouses/docs', name), copy);
      return copy;
    });
    await ingest(movedDatabase, copies);
    const rooms = 'SELECT _source, _position, room_type, price_per_night FROM guesthouses__rooms ORDER BY _source, _position';
    const roomEvidence = "SELECT source, attribute, quote, status FROM srag_evidence WHERE table_name = 'guesthouses__rooms' ORDER BY source, attribute";
    const [roomsBefore, evidenceBefore] = [await query(movedDatabase, rooms), await query(movedDatabase, roomEvidence)];
    expect(roomsBefore.filter((row) => row[0] === copies[0]).length).toBeGreaterThan(0);
    const renamed = join(workDirectory, 'renamed-casa-azul.md');
    renameSync(copies[0]!, renamed);
    standIn.reset();
    expect(await ingest(movedDatabase, [renamed, copies[1]!])).toMatchObject({ done: 0, unchanged: 2 });
    expect(standIn.requests).toHaveLength(0);
    const underNewPath = (rows: SqlValue[][]) => rows.map((row): SqlValue[] => [row[0] === copies[0] ? renamed : row[0]!, ...row.slice(1)]);
    const sorted = (rows: SqlValue[][]) => [...rows].sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));
    expect(sorted(await query(movedDatabase, rooms))).toEqual(sorted(underNewPath(roomsBefore)));
    expect(sorted(await query(movedDatabase, roomEvidence))).toEqual(sorted(underNewPath(evidenceBefore)));
    expect(await query(movedDatabase, `SELECT (SELECT count(*) FROM guesthouses WHERE _source = '${copies[0]}') + (SELECT count(*) FROM guesthouses__rooms WHERE _source = '${copies[0]}')
      + (SELECT count(*) FROM srag_evidence WHERE source = '${copies[0]}') + (SELECT count(*) FROM srag_ingestion_log WHERE source = '${copies[0]}')`)).toEqual([[0]]);
  }, 60_000);

  it('refuses to ingest into a table whose child entities the new schema changes, naming the fix', async () => {
    const changedDatabase = join(workDirectory, 'changed-entity.duckdb');
    const documents = [join(repositoryRoot, 'examples/guesthouses/docs', 'casa-azul-guesthouse.md')];
    await ingest(changedDatabase, documents);
    const roomsBefore = await query(changedDatabase, 'SELECT * FROM guesthouses__rooms ORDER BY _position');
    const changed: RecordSchema = { ...schema, entities: schema.entities!.map((entity) => ({ ...entity, description: `${entity.description}, suites included` })) };
    await expect(ingest(changedDatabase, documents, changed)).rejects.toMatchObject({
      code: 'INPUT_INVALID', message: expect.stringMatching(/child entities the new schema changes \(rooms\)/), hint: expect.stringMatching(/--table NAME/),
    });
    expect(await query(changedDatabase, 'SELECT * FROM guesthouses__rooms ORDER BY _position')).toEqual(roomsBefore);
  }, 60_000);

  it('keeps a room\'s value whose quote a model re-typed, and refuses one it misread under a true quote', async () => {
    const documents = ['giralda-corner-guesthouse.md', 'retiro-gate-guesthouse.md'].map((name) => join(repositoryRoot, 'examples/guesthouses/docs', name));
    standIn.setOptions({ slips: ['retype-quotes'], slipProperties: ['price_per_night'] });
    const retyped = join(workDirectory, 'retyped.duckdb');
    await ingest(retyped, documents);
    standIn.setOptions({ slips: ['misread-values'], slipProperties: ['price_per_night'] });
    const misread = join(workDirectory, 'misread.duckdb');
    await ingest(misread, documents);
    standIn.setOptions({ slips: [], slipProperties: [] });
    const prices = 'SELECT room_type, price_per_night FROM guesthouses__rooms ORDER BY _source, _position';
    expect(await query(retyped, prices)).toEqual([['Double Room', 88], ['Triple Room', 115], ['Rooftop Suite', 175], ['Double Room', 150], ['Junior Suite', 240]]);
    // Each misread price (×1000 or +1) is refused; the room stays, with the values its quotes state.
    expect(await query(misread, prices)).toEqual([['Double Room', null], ['Triple Room', null], ['Rooftop Suite', null], ['Double Room', null], ['Junior Suite', null]]);
    const [[status, reason]] = await query(misread, "SELECT status, reason FROM srag_evidence WHERE table_name = 'guesthouses__rooms' AND attribute = 'price_per_night[1]' LIMIT 1") as [[string, string]];
    expect(status).toBe('unsupported');
    expect(reason).toMatch(/quote/);
  }, 60_000);
});

// Last: a SQL session that ran srag_ask keeps the file locked after close() (as in many-tables.test.ts).
describe('srag_ask over a parent and its child table', () => {
  it('srag_ask(question) joins the guesthouses and their rooms and gives the gold rows', async () => {
    const session = await openSqlSession(database, { environment: environment(), progress: false });
    try {
      for (const question of questions.filter((candidate) => ['parent-child', 'child'].includes(candidate.kind)).slice(1)) {
        const [resultJson, tables] = (await session.run(`SELECT result, to_json(tables) FROM srag_ask('${question.question.replace(/'/g, "''")}')`)).rows[0]!;
        expect((JSON.parse(String(tables)) as string[]).sort(), question.question).toEqual([...question.tables].sort());
        const rows = (JSON.parse(String(resultJson)) as Array<Record<string, SqlValue>>).map((row) => Object.values(row));
        expect(matchesGold(rows, question.gold), `${question.question}: ${JSON.stringify(rows)}`).toBe(true);
      }
    } finally {
      await session.close();
    }
  }, 60_000);
});
