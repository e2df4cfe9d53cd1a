import { contentHash, recordSchemaToJsonSchema, type RecordSchema } from '../../../core/index.ts';
import { documentPropertyKeys, recordColumns, sheetNames } from './sheet-layout.ts';

export interface RecordsLayout {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  header: string[];
  /** 0-based column of each named column. */
  column: { source: number; status: number; error: number; contentHash: number; attributes: number[] };
}

export interface RecordsRow {
  /** 1-based sheet row. */
  row: number;
  source: string;
  status: string;
  error: string;
  contentHash: string;
}

/** A fingerprint of the schema the Records columns were made for; a new schema starts them afresh. */
export function schemaFingerprint(schema: RecordSchema): string {
  return contentHash(JSON.stringify(recordSchemaToJsonSchema(schema)));
}

export function recordsHeader(schema: RecordSchema): string[] {
  return [recordColumns.source, ...schema.attributes.map((attribute) => attribute.name), recordColumns.status, recordColumns.error, recordColumns.contentHash];
}

/**
 * The Records sheet for `schema`: created when missing; when the schema changed since its columns
 * were made, the columns are made again (keeping the sources, clearing values and statuses) so no
 * row carries values extracted under another schema.
 */
export function ensureRecordsSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, schema: RecordSchema): RecordsLayout {
  const properties = PropertiesService.getDocumentProperties();
  const fingerprint = schemaFingerprint(schema);
  const header = recordsHeader(schema);
  let sheet = spreadsheet.getSheetByName(sheetNames.records);
  if (!sheet) sheet = spreadsheet.insertSheet(sheetNames.records);
  const current = sheet.getLastColumn() > 0 ? sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0]!.map(String) : [];
  const stale = properties.getProperty(documentPropertyKeys.recordsSchemaFingerprint) !== fingerprint || current.join('\u0001') !== header.join('\u0001');
  if (stale) {
    const sources = sheet.getLastRow() > 1 && current[0] === recordColumns.source
      ? sheet.getRange(2, 1, sheet.getLastRow() - 1, 1).getValues().map((cells) => String(cells[0]))
      : [];
    sheet.clear();
    sheet.getRange(1, 1, 1, header.length).setValues([header]).setFontWeight('bold');
    if (sources.length) {
      const blank = header.slice(1).map(() => '');
      sheet.getRange(2, 1, sources.length, header.length).setValues(sources.map((source) => [source, ...blank]));
    }
    sheet.setFrozenRows(1);
    properties.setProperty(documentPropertyKeys.recordsSchemaFingerprint, fingerprint);
  }
  return layoutOf(sheet, header, schema);
}

/** The Records layout when the sheet already matches `schema`, else undefined. */
export function openRecordsSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, schema: RecordSchema): RecordsLayout | undefined {
  const sheet = spreadsheet.getSheetByName(sheetNames.records);
  if (!sheet || sheet.getLastColumn() === 0) return undefined;
  const header = recordsHeader(schema);
  const current = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0]!.map(String);
  if (current.join('\u0001') !== header.join('\u0001')) return undefined;
  return layoutOf(sheet, header, schema);
}

function layoutOf(sheet: GoogleAppsScript.Spreadsheet.Sheet, header: string[], schema: RecordSchema): RecordsLayout {
  return {
    sheet,
    header,
    column: {
      source: 0,
      status: header.indexOf(recordColumns.status),
      error: header.indexOf(recordColumns.error),
      contentHash: header.indexOf(recordColumns.contentHash),
      attributes: schema.attributes.map((_, index) => index + 1),
    },
  };
}

/**
 * Every Records row's bookkeeping: the source column and the last three columns (status, error,
 * content hash), two reads whatever the width. Each service call costs real time in Apps Script.
 */
export function readRecordsRows(layout: RecordsLayout): RecordsRow[] {
  const last = layout.sheet.getLastRow();
  if (last < 2) return [];
  const sources = layout.sheet.getRange(2, layout.column.source + 1, last - 1, 1).getValues();
  const bookkeeping = layout.sheet.getRange(2, layout.column.status + 1, last - 1, 3).getValues();
  return sources.map(([source], index) => ({
    row: index + 2,
    source: String(source ?? ''),
    status: String(bookkeeping[index]![0] ?? ''),
    error: String(bookkeeping[index]![1] ?? ''),
    contentHash: String(bookkeeping[index]![2] ?? ''),
  })).filter((row) => row.source !== '');
}

/** Write the status column for `rows` (as read by `readRecordsRows`, under the lock) in one call. */
export function writeStatuses(layout: RecordsLayout, rows: RecordsRow[], statusOf: (row: RecordsRow) => string): void {
  if (rows.length === 0) return;
  const first = rows[0]!.row;
  const last = rows[rows.length - 1]!.row;
  const byRow = new Map(rows.map((row) => [row.row, row]));
  const current = layout.sheet.getRange(first, layout.column.status + 1, last - first + 1, 1).getValues();
  const next = current.map(([status], index) => {
    const row = byRow.get(first + index);
    return [row ? statusOf(row) : status];
  });
  layout.sheet.getRange(first, layout.column.status + 1, next.length, 1).setValues(next);
}

/** Runs `work` holding the document lock: every write to Records' bookkeeping happens under it. */
export function withDocumentLock<T>(work: () => T): T {
  const lock = LockService.getDocumentLock();
  lock.waitLock(30_000);
  return holding(lock, work);
}

/**
 * Like `withDocumentLock`, but when the lock is not free within `waitMilliseconds` nothing runs
 * and the result is `{ locked: false }` instead of an exception, so the caller keeps its work.
 */
export function tryDocumentLock<T>(waitMilliseconds: number, work: () => T): { locked: true; value: T } | { locked: false } {
  const lock = LockService.getDocumentLock();
  if (!lock.tryLock(Math.max(0, Math.floor(waitMilliseconds)))) return { locked: false };
  return { locked: true, value: holding(lock, work) };
}

function holding<T>(lock: GoogleAppsScript.Lock.Lock, work: () => T): T {
  try {
    return work();
  } finally {
    SpreadsheetApp.flush();
    lock.releaseLock();
  }
}
