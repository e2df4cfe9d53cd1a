import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTable } from '../../node/duckdb/catalog/import-table.ts';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { generateDecoyTables } from '../helpers/decoy-tables.ts';
import { readGoldQuestions, rowsMatchGold, type GoldQuestion } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { runSrag } from '../helpers/run-srag.ts';

// One database as a new user builds it: two corpora ingested, a reference table imported from CSV,
// and decoy tables beside them; questions name no table.

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-many-tables-'));
const database = join(workDirectory, 'many.duckdb');
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });
const decoyCount = 30;

type TableQuestion = GoldQuestion & { tables: string[] };
const acrossTables = readGoldQuestions('examples/cities') as TableQuestion[];
const oneTable: TableQuestion[] = [
  ...readGoldQuestions('examples/hotels').filter((question) => ['How many hotels are in Spain?', 'How many 4-star hotels are there in Rome?'].includes(question.question)).map((question) => ({ ...question, tables: ['hotels'] })),
  ...readGoldQuestions('examples/worldcup').filter((question) => question.question === 'How many World Cups had 32 teams?').map((question) => ({ ...question, tables: ['world_cup_tournament'] })),
];
const questions = [...oneTable, ...acrossTables];

interface CliAnswer {
  answer: string;
  sql: string;
  tables: string[];
  joins: Array<{ table: string; column: string; otherTable: string; otherColumn: string }>;
  rows: Array<Array<string | number | boolean | null>>;
}

/** The system messages of the text-to-SQL requests, in order. */
function sqlPrompts(): string[] {
  return standIn.requests.filter((request) => request.kind === 'generate-sql').map((request) => String(request.body.messages[0].content));
}

/** The tables a SQL prompt describes. */
function promptTables(prompt: string): string[] {
  return [...prompt.matchAll(/^The table `([^`]+)` holds/gm)].map((match) => match[1]!).sort();
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/worldcup', 'examples/cities'] });
  for (const [corpus, table] of [['examples/hotels', 'hotels'], ['examples/worldcup', 'world_cup_tournament']] as const) {
    const ingest = await runSragInProcess(['ingest', `${corpus}/docs`, '--schema', `${corpus}/schema.json`, '--db', database], { environment: environment() });
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(ingest.stdout).toContain(`${table}: `);
  }
  const imported = await runSrag(['import', 'examples/cities/cities.csv', '--db', database]);
  expect(imported.status, imported.stderr).toBe(0);
  expect(imported.stdout).toMatch(/^cities: 14 rows, 5 columns \(city VARCHAR, country VARCHAR, population BIGINT, area_km2 BIGINT, is_capital BOOLEAN\) imported from examples\/cities\/cities\.csv .*; values meet hotels, world_cup_tournament\n$/);
  const store = await SragStore.open(database);
  try {
    for (const decoy of generateDecoyTables(decoyCount)) {
      const file = join(workDirectory, `${decoy.name}.csv`);
      writeFileSync(file, decoy.csv);
      await store.exclusive((connection) => importTable(connection, { file, databasePath: database }));
    }
  } finally {
    store.close();
  }
}, 240_000);
afterAll(async () => {
  await standIn?.close();
});

describe('questions over several tables, naming none', () => {
  let answers: CliAnswer[];
  let prompts: string[];

  beforeAll(async () => {
    standIn.reset();
    const ask = await runSragInProcess(['ask', ...questions.map((question) => question.question), '--db', database, '--json'], { environment: environment() });
    expect(ask.status, ask.stderr).toBe(0);
    answers = ask.stdout.trim().split('\n').map((line) => JSON.parse(line) as CliAnswer);
    prompts = sqlPrompts();
  }, 120_000);

  it('answers every question exactly, from the tables it needs and no other', () => {
    expect(answers).toHaveLength(questions.length);
    questions.forEach((question, index) => {
      const answer = answers[index]!;
      expect({ question: question.question, tables: [...answer.tables].sort() }).toEqual({ question: question.question, tables: [...question.tables].sort() });
      expect(rowsMatchGold(answer.rows, question.gold as never), `${question.question}: ${JSON.stringify(answer.rows)}`).toBe(true);
    });
  });

  it('shows the SQL prompt only the needed tables, with the join key the data supports', () => {
    expect(prompts).toHaveLength(questions.length);
    questions.forEach((question, index) => expect(promptTables(prompts[index]!), question.question).toEqual([...question.tables].sort()));
    const join = prompts[questions.findIndex((question) => question.question.startsWith('How many hotels are in cities'))]!;
    expect(join).toContain('- "hotels"."city" = "cities"."city" (every distinct "city" values occur in "cities"."city"; "cities"."city" is unique)');
    expect(join).toContain('The table `cities` holds the rows of examples/cities/cities.csv, imported as they are.');
    expect(join).not.toMatch(/museums_|airports_|weather_stations_/);
  });

  it('names the join the SQL used', () => {
    const worldCup = answers[questions.findIndex((question) => question.question.includes('won the World Cup'))]!;
    expect(worldCup.joins).toEqual([{ table: 'hotels', column: 'country', otherTable: 'world_cup_tournament', otherColumn: 'champion' }]);
  });

  it('keeps answering from the one table --table names, and the stand-in refuses a join it is not shown', async () => {
    const named = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', database, '--table', 'hotels'], { environment: environment() });
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/^11\n\nTable: hotels\nPath: sql \(the answer rests on the rows below\)\nSQL: SELECT COUNT\(\*\) FROM hotels WHERE country = 'Spain'\n/);
    const refused = await runSragInProcess(['ask', acrossTables[1]!.question, '--db', database, '--table', 'hotels'], { environment: environment() });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('reads "cities", which the prompt does not show');
  });
});

describe('srag import', () => {
  it('says in one line what is wrong and how to fix it: a missing file, a taken name, an unreadable CSV', async () => {
    const missing = await runSragInProcess(['import', 'no/such/cities.csv', '--db', database]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^srag: no file no\/such\/cities\.csv — check the path from the current directory$/);
    const taken = await runSragInProcess(['import', 'examples/cities/cities.csv', '--db', database]);
    expect(taken.stderr.trim().split('\n')).toHaveLength(1);
    expect(taken.stderr).toContain(`table "cities" already exists in ${database} (imported from examples/cities/cities.csv) — replace it with srag import examples/cities/cities.csv --table cities --replace`);
    const extracted = await runSragInProcess(['import', 'examples/cities/cities.csv', '--table', 'hotels', '--db', database]);
    expect(extracted.stderr).toContain('table "hotels" already exists');
    expect(extracted.stderr).toContain('holds extracted records');
    const broken = join(workDirectory, 'broken.csv');
    writeFileSync(broken, 'city,population\nParis,"2100000\nRome,2750000,extra,cells\n');
    const unreadable = await runSragInProcess(['import', broken, '--db', database]);
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreadable.stderr).toMatch(/^srag: cannot read .*broken\.csv as CSV: .* — check that it is a CSV file with a header row/);
    const empty = join(workDirectory, 'empty.csv');
    writeFileSync(empty, '');
    expect((await runSragInProcess(['import', empty, '--db', database])).stderr).toMatch(/^srag: .*empty\.csv has no rows to import — a CSV file needs a header line/);
  });

  it('reads a CSV separated by semicolons, as spreadsheets in many locales save it, with comma or point decimals', async () => {
    const commas = join(workDirectory, 'rates-eu.csv');
    writeFileSync(commas, 'currency;rate to euro;"note; free text"\nUSD;0,92;a\nGBP;1,17;b\n');
    const imported = await runSragInProcess(['import', commas, '--db', database]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^rates_eu: 2 rows, 3 columns \(currency VARCHAR, rate_to_euro DOUBLE, note_free_text VARCHAR\) imported from /);
    const points = join(workDirectory, 'rates-points.csv');
    writeFileSync(points, 'currency;rate\nUSD;0.92\nGBP;1.17\n');
    expect((await runSragInProcess(['import', points, '--db', database])).stdout).toMatch(/^rates_points: 2 rows, 2 columns \(currency VARCHAR, rate DOUBLE\) imported from /);
    const read = await runSragInProcess(['sql', '--db', database, '--json', '-c', 'SELECT e.currency, e.rate_to_euro, p.rate FROM rates_eu e JOIN rates_points p USING (currency) ORDER BY 1']);
    expect(JSON.parse(read.stdout).rows).toEqual([['GBP', 1.17, 1.17], ['USD', 0.92, 0.92]]);
    // "1,234" could be a thousand and more as well as a decimal: such a column stays text, never 1.234.
    const thousands = join(workDirectory, 'populations.csv');
    writeFileSync(thousands, 'city;population\nParis;2,100\nRome;2,750\n');
    expect((await runSragInProcess(['import', thousands, '--db', database])).stdout).toMatch(/^populations: 2 rows, 2 columns \(city VARCHAR, population VARCHAR\) imported from /);
    for (const table of ['rates_eu', 'rates_points', 'populations']) expect((await runSragInProcess(['drop', table, '--db', database, '--yes'])).status).toBe(0);
  });

  it('replaces an imported table with --replace, and drop removes it with its catalog rows', async () => {
    const copy = join(workDirectory, 'capitals.csv');
    writeFileSync(copy, 'City Name,Population\nParis,1\n');
    expect((await runSragInProcess(['import', copy, '--db', database])).status).toBe(0);
    writeFileSync(copy, 'City Name,Population\nParis,1\nRome,2\n');
    const replaced = await runSragInProcess(['import', copy, '--db', database, '--replace']);
    expect(replaced.stdout).toMatch(/^capitals: 2 rows, 2 columns \(city_name VARCHAR, population BIGINT\)/);
    const dropped = await runSragInProcess(['drop', 'capitals', '--db', database, '--yes']);
    expect(dropped.status, dropped.stderr).toBe(0);
    const left = await runSragInProcess(['sql', '--db', database, '--json', '-c',
      "SELECT (SELECT count(*) FROM srag_tables WHERE table_name = 'capitals') + (SELECT count(*) FROM srag_imports WHERE table_name = 'capitals') + (SELECT count(*) FROM srag_column_values WHERE table_name = 'capitals') + (SELECT count(*) FROM srag_table_links WHERE 'capitals' IN (table_name, other_table)) AS rows_left"]);
    expect(JSON.parse(left.stdout).rows).toEqual([[0]]);
  });
});

// Last: a SQL session that ran srag_ask keeps the file locked after close() (seen before this change too).
describe('srag_ask over several tables', () => {
  it('srag_ask(question) chooses the same tables and gives the same rows', async () => {
    const session = await openSqlSession(database, { environment: environment(), progress: false });
    try {
      for (const question of [oneTable[0]!, acrossTables[1]!, acrossTables[4]!]) {
        const [resultJson, tables] = (await session.run(`SELECT result, to_json(tables) FROM srag_ask('${question.question.replace(/'/g, "''")}')`)).rows[0]!;
        expect((JSON.parse(String(tables)) as string[]).sort(), question.question).toEqual([...question.tables].sort());
        const rows = (JSON.parse(String(resultJson)) as Array<Record<string, unknown>>).map((row) => Object.values(row)) as CliAnswer['rows'];
        expect(rowsMatchGold(rows, question.gold as never), question.question).toBe(true);
      }
      const [answer, tables] = (await session.run("SELECT answer, to_json(tables) FROM srag_ask('How many hotels are in Spain?', 'hotels')")).rows[0]!;
      expect({ answer, tables: JSON.parse(String(tables)) }).toEqual({ answer: '11', tables: ['hotels'] });
    } finally {
      await session.close();
    }
  }, 120_000);
});
