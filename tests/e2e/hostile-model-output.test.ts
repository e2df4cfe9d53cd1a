import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMarkers, startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

/**
 * Model output that used to break a whole document (or a store) instead of one cell: an integer
 * beyond int64, a value nested 100,000 levels deep, and schema properties named like JavaScript's
 * own object keys (`__proto__`, `constructor`, `toString`, `hasOwnProperty`), which are real
 * column names in some data sets. Through the real CLI: ingest, SQL, evidence and ask.
 */

const corpus = mkdtempSync(join(tmpdir(), 'srag-hostile-'));
let standIn: LlmStandIn;
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' });
const database = join(corpus, 'rows.duckdb');

// Written as text: in an object literal, `__proto__:` would set the prototype instead of a key.
const schemaText = `{
  "title": "Dataset Row",
  "properties": {
    "__proto__": { "type": "string", "description": "The prototype the row names." },
    "constructor": { "type": "string", "description": "Who built the row." },
    "toString": { "type": "integer", "description": "How many strings the row holds." },
    "hasOwnProperty": { "type": "boolean", "description": "Whether the row owns its property." }
  }
}`;

interface Row {
  file: string;
  prototype: string;
  builder: string;
  strings: string;
  owns: string;
  marker?: string;
}
const rows: Row[] = [
  { file: 'alpha.txt', prototype: 'Alpha prototype', builder: 'Ada Lovelace', strings: '12', owns: 'Yes' },
  { file: 'beta.txt', prototype: 'Beta prototype', builder: 'Grace Hopper', strings: '7', owns: 'No' },
  // The model gives a whole number no 64-bit integer holds.
  { file: 'gamma.txt', prototype: 'Gamma prototype', builder: 'Alan Turing', strings: '99999999999999999999', owns: 'Yes' },
  // The model gives a first value (__proto__) nested 100,000 levels deep.
  { file: 'delta.txt', prototype: 'Delta prototype', builder: 'Edsger Dijkstra', strings: '3', owns: 'No', marker: documentMarkers.deepValue },
];
const question = 'How many strings do all the rows hold together?';

beforeAll(async () => {
  mkdirSync(join(corpus, 'docs'));
  mkdirSync(join(corpus, 'gold'));
  writeFileSync(join(corpus, 'schema.json'), schemaText);
  const gold = rows.map((row) => {
    writeFileSync(join(corpus, 'docs', row.file), `${row.marker ?? ''}\nPrototype: ${row.prototype}\nBuilt by: ${row.builder}\nStrings: ${row.strings}\nOwns property: ${row.owns}\n`);
    // The model answers with `raw`: a JSON number literal for the integer no int64 holds.
    const strings = row.strings.length > 15 ? row.strings : JSON.stringify(row.strings);
    const entry = (raw: string, quote: string) => `{"value":null,"raw":${raw},"quote":${JSON.stringify(quote)}}`;
    return `{"document":"docs/${row.file}","values":{`
      + `"__proto__":${entry(JSON.stringify(row.prototype), `Prototype: ${row.prototype}`)},`
      + `"constructor":${entry(JSON.stringify(row.builder), `Built by: ${row.builder}`)},`
      + `"toString":${entry(strings, `Strings: ${row.strings}`)},`
      + `"hasOwnProperty":${entry(JSON.stringify(row.owns), `Owns property: ${row.owns}`)}}}`;
  });
  writeFileSync(join(corpus, 'gold', 'records.jsonl'), `${gold.join('\n')}\n`);
  writeFileSync(join(corpus, 'questions.jsonl'), `${JSON.stringify({ question, answer: '22', sql: 'SELECT sum("toString") AS total FROM dataset_row' })}\n`);
  standIn = await startLlmStandIn({ corpora: [corpus] });
});
afterAll(async () => {
  await standIn?.close();
});

const sqlJson = async (sql: string) => {
  const run = await runSragInProcess(['sql', '--db', database, '--json', '-c', sql], { environment: environment(), cwd: corpus });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { columns: string[]; rows: unknown[][] };
};

describe('hostile model output and property names through the CLI', () => {
  it('ingests every document although two replies hold values that cannot be stored', async () => {
    const ingest = await runSragInProcess(['ingest', 'docs/*', '--schema', 'schema.json', '--db', database], { environment: environment(), cwd: corpus });
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(/^dataset_row: 4 done, 0 failed/);
  });

  it('keeps every property as its own column, whatever its name', async () => {
    const table = await sqlJson('SELECT "__proto__", "constructor", "toString", "hasOwnProperty" FROM dataset_row ORDER BY _source');
    expect(table.columns).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    expect(table.rows).toEqual([
      ['Alpha prototype', 'Ada Lovelace', 12, true],
      ['Beta prototype', 'Grace Hopper', 7, false],
      [null, 'Edsger Dijkstra', 3, false],
      ['Gamma prototype', 'Alan Turing', null, true],
    ]);
  });

  it('records why each bad value became NULL, describing a value too deep to store', async () => {
    const evidence = await sqlJson(`SELECT source, attribute, status, reason, raw FROM srag_evidence WHERE status <> 'supported' ORDER BY source, attribute`);
    expect(evidence.rows).toEqual([
      [expect.stringMatching(/delta\.txt$/), '__proto__', 'invalid', expect.stringMatching(/^__proto__: .* is not text; expected text$/), expect.stringContaining('nested more than 16 levels deep')],
      [expect.stringMatching(/gamma\.txt$/), 'toString', 'invalid', expect.stringMatching(/^toString: .* is too large to hold exactly; expected a whole number$/), expect.any(String)],
    ]);
  });

  it('answers a question over a column named like an object key', async () => {
    const ask = await runSragInProcess(['ask', question, '--db', database, '--json'], { environment: environment(), cwd: corpus });
    expect(ask.status, ask.stderr).toBe(0);
    const answer = JSON.parse(ask.stdout.trim()) as { sql: string; rows: unknown[][] };
    expect(answer.sql).toContain('"toString"');
    expect(answer.rows).toEqual([[22]]);
  });

  const objectKeyColumns = '"__proto__", "constructor", "toString", "hasOwnProperty"';
  const expectedRows = [
    ['Alpha prototype', 'Ada Lovelace', 12, true],
    ['Beta prototype', 'Grace Hopper', 7, false],
    [null, 'Edsger Dijkstra', 3, false],
    ['Gamma prototype', 'Alan Turing', null, true],
  ];

  it('gives the same columns through the srag_extract table function', async () => {
    const table = await sqlJson(`SELECT ${objectKeyColumns} FROM srag_extract('docs/*', schema := 'schema.json') ORDER BY filename`);
    expect(table.rows).toEqual(expectedRows);
  });

  it('gives the same columns through the scalar srag_extract and srag_record_type', async () => {
    const spread = objectKeyColumns.split(', ').map((column) => `r.${column}`).join(', ');
    const scalar = await sqlJson(`SELECT ${spread} FROM (SELECT filename, json_transform(srag_extract(content, 'schema.json', filename), srag_record_type('schema.json')) AS r FROM read_text('docs/*')) ORDER BY filename`);
    expect(scalar.rows).toEqual(expectedRows);
  });
});
