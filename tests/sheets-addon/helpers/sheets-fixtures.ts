import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSheetsAddon } from '../../../sheets-addon/build.mjs';
import { BatchDriver, type BatchOutcome, type ExtractionProgress } from '../../../sheets-addon/src/sidebar/batch-driver.ts';
import { AppsScriptHost } from './apps-script-host/apps-script-host.ts';
import { SpreadsheetAppStandIn, type CellValue } from './apps-script-host/spreadsheet-stand-in.ts';

/** A test API key: key-shaped, so a leak would also be caught by the redaction patterns. */
export const testApiKey = 'sk-test-SECRET-key-7d1f0c2b9a';

/** Builds the add-on into a directory of its own, so test files running at once never share one. */
export async function buildBundleForTest(): Promise<string> {
  const distDirectory = mkdtempSync(path.join(tmpdir(), 'srag-sheets-dist-'));
  await buildSheetsAddon({ distDirectory });
  return distDirectory;
}

export interface CorpusDocument {
  source: string;
  text: string;
}

/** The documents of a sample corpus, as a user would paste them: file name and file content. */
export function corpusDocuments(corpus: string): CorpusDocument[] {
  const directory = path.join(corpus, 'docs');
  return readdirSync(directory).sort().map((name) => ({ source: name, text: readFileSync(path.join(directory, name), 'utf8') }));
}

/** A spreadsheet with the Documents sheet filled, the schema imported and settings saved by the owner. */
export async function preparedSpreadsheet(host: AppsScriptHost, options: { corpus: string; documents?: CorpusDocument[]; baseUrl: string }): Promise<void> {
  await host.run('setUpSheets');
  const documents = options.documents ?? corpusDocuments(options.corpus);
  const sheet = host.spreadsheet.sheet('Documents')!;
  documents.forEach((document, index) => {
    sheet.set('values', index + 2, 1, document.source);
    sheet.set('values', index + 2, 2, cellTextFor(host, document, index));
  });
  await host.run('importSchemaJson', [readFileSync(path.join(options.corpus, 'schema.json'), 'utf8')]);
  await host.run('saveSettings', [{ baseUrl: options.baseUrl, apiKey: testApiKey, model: 'srag-stand-in' }]);
}

/** A Sheets cell holds at most 50,000 characters: longer documents go in as Drive links (picked in the Google Picker). */
function cellTextFor(host: AppsScriptHost, document: CorpusDocument, index: number): string {
  if (document.text.length <= 50_000) return document.text;
  const fileId = `driveFile${String(index).padStart(4, '0')}AbCdEfGhIjKlMnOp`;
  host.fetch.driveFiles.set(fileId, { name: document.source, mimeType: 'text/plain', content: document.text });
  host.fetch.pickedFiles.add(fileId);
  return `https://drive.google.com/file/d/${fileId}/view`;
}

/** The sidebar's batch driver, with google.script.run replaced by executions on the host. */
export function sidebarDriver(host: AppsScriptHost, options: { parallelCalls?: number; chunkSize?: number; onProgress?: (progress: ExtractionProgress) => void } = {}): BatchDriver {
  let claim = 0;
  return new BatchDriver({
    call: (name, ...args) => host.run(name, args),
    parallelCalls: options.parallelCalls ?? 3,
    chunkSize: options.chunkSize ?? 8,
    newClaimId: () => `claim${(claim += 1)}`,
    wait: (milliseconds) => new Promise((resolve) => setTimeout(resolve, Math.min(milliseconds, 200))),
    onProgress: options.onProgress,
    lapsedClaimPollMilliseconds: 50,
  });
}

export async function runSidebarBatch(host: AppsScriptHost, options: Parameters<typeof sidebarDriver>[1] = {}): Promise<BatchOutcome> {
  return sidebarDriver(host, options).start('all');
}

/** A range's values exactly as Sheets hands them to a custom function (dates as Date objects). */
export function rangeValues(host: AppsScriptHost, sheetName: string): CellValue[][] {
  return new SpreadsheetAppStandIn(host.spreadsheet, { readOnly: true }).getActiveSpreadsheet().getSheetByName(sheetName)!.getDataRange().getValues();
}

/** Every text the add-on could have written anywhere a user or a log reader sees. */
export function everythingVisible(host: AppsScriptHost): string[] {
  const texts: string[] = [];
  for (const sheet of host.spreadsheet.sheets) {
    for (const row of sheet.values) for (const cell of row ?? []) texts.push(String(cell));
    for (const row of sheet.notes) for (const note of row ?? []) texts.push(String(note));
  }
  texts.push(...host.logLines, ...host.spreadsheet.toasts);
  for (const store of [host.documentCache, host.scriptCache, host.userCaches.owner, host.userCaches.editor]) {
    for (const [key, entry] of store.entries) texts.push(key, entry.value);
  }
  for (const store of [host.documentProperties, host.scriptProperties]) for (const [key, value] of store.values) texts.push(key, value);
  for (const execution of host.executions) if (execution.error) texts.push(execution.error);
  if (host.spreadsheet.sidebar) texts.push(host.spreadsheet.sidebar.html);
  return texts;
}

/** The top-left cell of a custom function's result. */
export function firstCell<T>(cells: T[][]): T {
  return cells[0]![0]!;
}
