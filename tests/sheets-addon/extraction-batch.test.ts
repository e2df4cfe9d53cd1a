import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentText } from '../../core/index.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { AppsScriptHost } from './helpers/apps-script-host/apps-script-host.ts';
import { buildBundleForTest, corpusDocuments, preparedSpreadsheet, runSidebarBatch, sidebarDriver, type CorpusDocument } from './helpers/sheets-fixtures.ts';
import { readBatchDocuments } from '../helpers/llm-stand-in/respond-extract-record-batch.ts';

const hotels = corpusDocuments('examples/hotels');
const brokenDocument: CorpusDocument = { source: 'broken-page.txt', text: 'STAND-IN: GARBAGE\nThis page makes the model answer with prose every time.' };
const gold = new Map(readFileSync('examples/hotels/gold/records.jsonl', 'utf8').trim().split('\n').map((line) => {
  const record = JSON.parse(line) as { document: string; values: Record<string, { value: unknown }> };
  return [record.document.replace(/^docs\//, ''), record.values] as const;
}));
const attributes = Object.keys(JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8')).properties as object);

let distDirectory: string;
let standIn: LlmStandIn;
let host: AppsScriptHost;

beforeAll(async () => {
  distDirectory = await buildBundleForTest();
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
  standIn.setOptions({ faultRate: 0, latencyMs: 0 });
  host = new AppsScriptHost(distDirectory);
});

afterEach(async () => {
  await host.close();
});

/**
 * Extraction requests per document source, from what the stand-in received: total and answered
 * well. A batch request (several documents in one call) counts for each document it holds.
 */
function extractionRequestsBySource(documents: CorpusDocument[]) {
  const sourceOfText = new Map(documents.map((document) => [documentText(document.source, document.text), document.source]));
  const counts = new Map<string, { sent: number; answeredWell: number }>();
  for (const request of standIn.requests) {
    if (request.kind !== 'extract-record' && request.kind !== 'extract-record-batch') continue;
    const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages;
    const user = messages.find((message) => message.role === 'user')!.content;
    const texts = request.kind === 'extract-record' ? [user.replace(/^<document>\n/, '').replace(/\n<\/document>$/, '')] : readBatchDocuments(user).map((entry) => entry.text);
    for (const text of texts) {
      const source = sourceOfText.get(text) ?? 'unknown';
      const entry = counts.get(source) ?? { sent: 0, answeredWell: 0 };
      entry.sent += 1;
      if (request.status === 200 && !request.fault && !messages.some((message) => message.role === 'assistant')) entry.answeredWell += 1;
      counts.set(source, entry);
    }
  }
  return counts;
}

interface RecordRow {
  values: Record<string, unknown>;
  status: string;
  error: string;
}

/** The Records sheet by source, with date cells read back as ISO dates. */
function recordsBySource(): Map<string, RecordRow> {
  const sheet = host.spreadsheet.sheet('Records')!;
  const [header, ...rows] = sheet.values.map((row) => row.map((cell) => cell));
  const rowsBySource = new Map<string, RecordRow>();
  rows.forEach((row, index) => {
    const values: Record<string, unknown> = {};
    header!.forEach((name, column) => {
      const cell = row[column] ?? '';
      const format = sheet.formats[index + 1]?.[column] ?? '';
      values[String(name)] = typeof cell === 'number' && format.includes('yy') ? new Date(Math.round((cell - 25_569) * 86_400_000)).toISOString().slice(0, 10) : cell;
    });
    rowsBySource.set(String(row[0]), { values, status: String(values._status), error: String(values._error) });
  });
  return rowsBySource;
}

function expectGoldValues(source: string, row: RecordRow): void {
  const expected = gold.get(source)!;
  for (const attribute of attributes) {
    const goldValue = expected[attribute]!.value;
    expect({ source, attribute, value: row.values[attribute] }).toEqual({ source, attribute, value: goldValue === null ? '' : goldValue });
  }
}

describe('a sidebar-driven extraction in the Sheets add-on', () => {
  it('extracts 50 documents and a broken one across many server calls, some killed mid-chunk, with injected faults: nothing lost, nothing done twice', async () => {
    const documents = [...hotels, brokenDocument];
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents, baseUrl: standIn.url });
    standIn.setOptions({ faultRate: 0.15, faultKinds: ['rate_limit', 'server_error', 'truncated_json', 'malformed_json'], seed: 7 });
    // Early enough to fall mid-run: the six documents of a chunk share a call or two.
    host.fetch.killAfter.push(2, 6, 10);

    const outcome = await runSidebarBatch(host, { parallelCalls: 3, chunkSize: 6 });

    expect(outcome.error).toBeUndefined();
    expect(host.fetch.kills).toBe(3);
    expect(host.executions.filter((execution) => execution.outcome === 'killed')).toHaveLength(3);
    expect(host.executions.filter((execution) => execution.functionName === 'extractNextChunk').length).toBeGreaterThanOrEqual(9);
    expect(standIn.requests.some((request) => request.fault)).toBe(true);

    const records = recordsBySource();
    expect([...records.keys()].sort()).toEqual(documents.map((document) => document.source).sort());
    for (const document of hotels) {
      const row = records.get(document.source)!;
      expect({ source: document.source, status: row.status, error: row.error }).toEqual({ source: document.source, status: 'done', error: '' });
      expectGoldValues(document.source, row);
    }
    expect(records.get(brokenDocument.source)).toMatchObject({ status: 'failed' });
    expect(records.get(brokenDocument.source)!.error).toMatch(/could not parse|not JSON|JSON/i);
    expect(outcome.progress).toMatchObject({ total: 51, done: 50, failed: 1, queued: 0, running: 0 });

    const requests = extractionRequestsBySource(documents);
    for (const document of hotels) {
      expect({ source: document.source, answeredWell: requests.get(document.source)?.answeredWell }).toEqual({ source: document.source, answeredWell: 1 });
    }
    expect(requests.get('unknown')).toBeUndefined();
  });

  it('resumes from the status column after the sidebar closed mid-batch, taking rows a vanished execution held once their claim lapses', async () => {
    const documents = hotels.slice(0, 20);
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents, baseUrl: standIn.url });
    await host.run('startExtraction', [{ scope: 'all' }]);
    host.fetch.killAfter.push(host.fetch.sent.length);
    await expect(host.run('extractNextChunk', [{ claimId: 'lost', maxDocuments: 5 }])).rejects.toThrow(/Exceeded maximum execution time/);
    const held = [...recordsBySource().values()].filter((row) => row.status.startsWith('running · lost'));
    expect(held).toHaveLength(5);

    const early = await host.run<{ claimed: number }>('extractNextChunk', [{ claimId: 'early', maxDocuments: 20 }]);
    expect(early.claimed).toBe(15);

    host.clock.offsetMilliseconds = 8 * 60_000;
    const state = await host.run<{ progress: { queued: number; running: number; done: number } }>('getSidebarState');
    expect(state.progress).toMatchObject({ done: 15, running: 5 });
    const outcome = await sidebarDriver(host).resume();
    expect(outcome.progress).toMatchObject({ total: 20, done: 20, running: 0, queued: 0 });
    for (const [source, counts] of extractionRequestsBySource(documents)) expect({ source, ...counts }).toEqual({ source, sent: 1, answeredWell: 1 });
  });

  it('stops on Stop (queued rows become stopped, running chunks end after their round trip) and finishes when Extract runs again', async () => {
    const documents = hotels.slice(0, 16);
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents, baseUrl: standIn.url });
    let stopping: Promise<void> | undefined;
    const driver = sidebarDriver(host, {
      parallelCalls: 1,
      chunkSize: 2,
      onProgress: (progress) => {
        if (!stopping && progress.done >= 2) stopping = driver.stop();
      },
    });
    const first = await driver.start('all');
    await stopping;
    expect(first.stopped).toBe(true);
    expect(first.progress.done).toBeLessThan(16);
    const statuses = [...recordsBySource().values()].map((row) => row.status);
    expect(statuses.filter((status) => status === 'stopped').length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status.startsWith('running')).length).toBe(0);

    const second = await runSidebarBatch(host);
    expect(second.progress).toMatchObject({ total: 16, done: 16, stopped: 0 });
    for (const [source, counts] of extractionRequestsBySource(documents)) expect({ source, answeredWell: counts.answeredWell }).toEqual({ source, answeredWell: 1 });
  });

  it('skips rows already extracted for the same content and schema, and extracts again what changed', async () => {
    const documents = hotels.slice(0, 6);
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents, baseUrl: standIn.url });
    await runSidebarBatch(host);
    const requestsAfterFirstBatch = standIn.requests.length;

    const again = await host.run<{ queuedNow: number }>('startExtraction', [{ scope: 'all' }]);
    expect(again.queuedNow).toBe(0);
    await runSidebarBatch(host);
    expect(standIn.requests.length).toBe(requestsAfterFirstBatch);

    host.spreadsheet.sheet('Documents')!.set('values', 3, 2, `${documents[1]!.text}\n<p>Renovated in 2024.</p>`);
    expect((await host.run<{ queuedNow: number }>('startExtraction', [{ scope: 'all' }])).queuedNow).toBe(1);

    const schema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8')) as { properties: Record<string, unknown> };
    delete schema.properties.manager_name;
    await host.run('importSchemaJson', [JSON.stringify(schema)]);
    expect((await host.run<{ queuedNow: number }>('startExtraction', [{ scope: 'all' }])).queuedNow).toBe(6);
    expect(host.spreadsheet.sheet('Records')!.values[0]).not.toContain('manager_name');
  });

  it('queues only the selected rows when extracting the selection', async () => {
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 8), baseUrl: standIn.url });
    host.spreadsheet.activeRange = { sheet: 'Documents', row: 3, column: 1, rows: 3, columns: 2 };
    const prepared = await host.run<{ queuedNow: number; notStarted: number }>('startExtraction', [{ scope: 'selection' }]);
    expect(prepared).toMatchObject({ queuedNow: 3, notStarted: 5 });
  });

  it('reads a Drive link in the Documents sheet through the Drive API with the add-on\'s token', async () => {
    const document = hotels[0]!;
    host.fetch.driveFiles.set('1AbCdEfGhIjKlMnOpQrStUvWxYz012345', { name: document.source, mimeType: 'text/html', content: document.text });
    host.fetch.pickedFiles.add('1AbCdEfGhIjKlMnOpQrStUvWxYz012345');
    await preparedSpreadsheet(host, {
      corpus: 'examples/hotels',
      documents: [{ source: 'from-drive', text: 'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz012345/view?usp=sharing' }],
      baseUrl: standIn.url,
    });
    const outcome = await runSidebarBatch(host);
    expect(outcome.progress).toMatchObject({ done: 1, failed: 0 });
    const row = recordsBySource().get('from-drive')!;
    expect(row.values.hotel_name).toBe(gold.get(document.source)!.hotel_name!.value);
    expect(host.fetch.sent.filter((request) => request.url.startsWith('https://www.googleapis.com/drive/'))).toHaveLength(2);
  });
});

describe('Drive files under the drive.file scope', () => {
  it('adds picked files as Documents rows once each, and extracts them', async () => {
    const [first, second] = hotels;
    for (const [id, document] of [['1PickedFileNumberOneAbCdEfGh', first!], ['1PickedFileNumberTwoAbCdEfGh', second!]] as const) {
      host.fetch.driveFiles.set(id, { name: document.source, mimeType: 'text/markdown', content: document.text });
      host.fetch.pickedFiles.add(id);
    }
    // A row typed in by hand under the same name as a picked file (its text is the page's own: the stand-in extracts only pages it has gold for).
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: [{ source: first!.source, text: first!.text }], baseUrl: standIn.url });
    const picked = [{ id: '1PickedFileNumberOneAbCdEfGh', name: first!.source }, { id: '1PickedFileNumberTwoAbCdEfGh', name: second!.source }];
    expect(await host.run('addDriveFiles', [picked])).toEqual({ added: 2, skipped: 0 });
    expect(await host.run('addDriveFiles', [picked])).toEqual({ added: 0, skipped: 2 });
    const rows = host.spreadsheet.sheet('Documents')!.values.slice(1).map((row) => [row[0], row[1]]);
    expect(rows).toEqual([
      [first!.source, first!.text],
      [`${first!.source} (1PickedF)`, 'https://drive.google.com/file/d/1PickedFileNumberOneAbCdEfGh/view'],
      [second!.source, 'https://drive.google.com/file/d/1PickedFileNumberTwoAbCdEfGh/view'],
    ]);
    const outcome = await runSidebarBatch(host);
    expect(outcome.progress).toMatchObject({ done: 3, failed: 0 });
    expect(recordsBySource().get(second!.source)!.values.hotel_name).toBe(gold.get(second!.source)!.hotel_name!.value);
  });

  it('fails the row of a pasted link to a file nobody picked, saying to pick it, and the batch goes on', async () => {
    host.fetch.driveFiles.set('1NeverPickedFileAbCdEfGhIjKl', { name: 'elsewhere.md', mimeType: 'text/markdown', content: hotels[2]!.text });
    await preparedSpreadsheet(host, {
      corpus: 'examples/hotels',
      documents: [hotels[3]!, { source: 'pasted-link', text: 'https://drive.google.com/file/d/1NeverPickedFileAbCdEfGhIjKl/view' }],
      baseUrl: standIn.url,
    });
    const outcome = await runSidebarBatch(host);
    expect(outcome.progress).toMatchObject({ done: 1, failed: 1 });
    expect(recordsBySource().get('pasted-link')!.error).toMatch(/Google Drive answered 404 .*Add files from Drive/);
  });

  it('says which script properties the Picker needs when they are missing, and hands it the token, key and project once set', async () => {
    await host.run('menuAddDriveFiles');
    expect(host.spreadsheet.dialogs).toMatchObject([{ title: 'Add files from Drive', width: 1051, height: 650 }]);
    expect(host.spreadsheet.dialogs[0]!.html).toContain('apis.google.com/js/api.js');
    await expect(host.run('getDrivePickerSettings')).rejects.toThrow(/^srag \[INPUT_INVALID\]: Add files from Drive is not set up: the script property srag\.pickerApiKey and srag\.cloudProjectNumber is missing — .*Script properties/);
    host.scriptProperties.setProperties({ 'srag.pickerApiKey': 'AIzaSyTestPickerKey', 'srag.cloudProjectNumber': '123456789012' });
    expect(await host.run('getDrivePickerSettings')).toMatchObject({ oauthToken: 'test-oauth-token', apiKey: 'AIzaSyTestPickerKey', appId: '123456789012' });
  });
});

describe('writing records while another execution holds the Records lock', () => {
  /** Takes the document lock as another execution would, as soon as the first model request goes out. */
  function holdLockFromFirstModelRequest(): { released: () => void } {
    const intruder = 'a slow execution elsewhere';
    host.fetch.onSend = (request) => {
      if (request.url.startsWith(standIn.url) && host.locks.document.holder === undefined) {
        host.fetch.onSend = undefined;
        void host.locks.document.acquire(intruder, 0);
      }
    };
    return { released: () => host.locks.document.release(intruder) };
  }

  it('keeps finished records while the lock is taken and writes them once it is free, losing none', async () => {
    const documents = hotels.slice(0, 6);
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents, baseUrl: standIn.url });
    await host.run('startExtraction', [{ scope: 'all' }]);
    host.clock.speed = 10;
    const lock = holdLockFromFirstModelRequest();
    // Freed once a write has given up waiting for it: those records must still reach the sheet.
    const watch = setInterval(() => {
      if (host.locks.document.timeouts > 0) {
        clearInterval(watch);
        lock.released();
      }
    }, 10);

    const chunk = await host.run<{ claimed: number; done: number }>('extractNextChunk', [{ claimId: 'patient', maxDocuments: 6 }]).finally(() => clearInterval(watch));

    expect(host.locks.document.timeouts).toBeGreaterThan(0);
    expect(chunk).toMatchObject({ claimed: 6, done: 6 });
    const records = recordsBySource();
    for (const document of documents) {
      const row = records.get(document.source)!;
      expect({ source: document.source, status: row.status }).toEqual({ source: document.source, status: 'done' });
      expectGoldValues(document.source, row);
    }
    for (const [source, counts] of extractionRequestsBySource(documents)) expect({ source, ...counts }).toEqual({ source, sent: 1, answeredWell: 1 });
  });

  it('fails the call with a one-line reason when the lock never comes back, and the rows are done later from cached replies, none extracted twice', async () => {
    const documents = hotels.slice(0, 4);
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents, baseUrl: standIn.url });
    await host.run('startExtraction', [{ scope: 'all' }]);
    host.clock.speed = 100;
    const lock = holdLockFromFirstModelRequest();

    await expect(host.run('extractNextChunk', [{ claimId: 'blocked', maxDocuments: 4 }]))
      .rejects.toThrow(/^srag \[TIME_LIMIT\]: [1-4] finished record\(s\) could not be written: another execution held the Records sheet's lock/);
    expect([...recordsBySource().values()].map((row) => row.status.split(' · ')[0])).toEqual(['running', 'running', 'running', 'running']);

    lock.released();
    host.clock.speed = 1;
    host.clock.offsetMilliseconds = 8 * 60_000;
    const outcome = await sidebarDriver(host).resume();
    expect(outcome.progress).toMatchObject({ total: 4, done: 4, running: 0 });
    for (const document of documents) expectGoldValues(document.source, recordsBySource().get(document.source)!);
    // The finished records were not written, yet no document was extracted twice: the replies were cached.
    for (const [source, counts] of extractionRequestsBySource(documents)) expect({ source, answeredWell: counts.answeredWell }).toEqual({ source, answeredWell: 1 });
  });
});

describe('the add-on menu and schema prediction', () => {
  it('adds its menu on open, and a menu item opens the built sidebar at the section it names', async () => {
    await host.run('onOpen', [{ authMode: 'FULL' }]);
    expect(host.spreadsheet.menus[0]!.items.map(([caption]) => caption)).toEqual([
      'Open srag', 'Settings', 'Predict schema', 'Add files from Drive…', 'Extract all rows', 'Extract selected rows', 'Stop extraction', 'Refresh SRAG_ASK queries',
    ]);
    await host.run('menuExtractAll');
    expect(host.spreadsheet.sidebar!.title).toBe('srag');
    expect(host.spreadsheet.sidebar!.html).toContain('SragSidebar');
    await host.run('setUpSheets');
    expect((await host.run<{ intent: string }>('getSidebarState')).intent).toBe('extract-all');
    expect((await host.run<{ intent: string }>('getSidebarState')).intent).toBe('none');
  });

  it('predicts a schema from sample rows and questions into the Schema sheet (four rounds, as in the S-RAG paper)', async () => {
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 12), baseUrl: standIn.url });
    host.spreadsheet.sheet('Schema')!.values = [];
    const questions = readFileSync('examples/hotels/questions.jsonl', 'utf8').trim().split('\n').slice(0, 10).map((line) => (JSON.parse(line) as { question: string }).question);
    const predicted = await host.run<{ title: string; attributes: string[]; ranges: object }>('predictSchemaFromDocuments', [{ questions, sampleSize: 12, iterations: 4 }]);
    expect(predicted).toEqual({ title: 'Hotels', attributes, ranges: { records: 'Records!A1:R', schema: 'Schema!A1:E15' } });
    // Round 4 asks exactly what round 3 asked (the schema stopped changing), so its reply comes from the cache.
    expect(standIn.countByKind()).toEqual({ 'predict-schema-first': 1, 'refine-schema': 2 });
    const schemaSheet = host.spreadsheet.sheet('Schema')!;
    expect(schemaSheet.values[0]).toEqual(['attribute', 'type', 'description', 'examples', 'unit']);
    expect(schemaSheet.values.slice(1).map((row) => [row[0], row[1]])).toContainEqual(['opened_date', 'date']);
  });
});
