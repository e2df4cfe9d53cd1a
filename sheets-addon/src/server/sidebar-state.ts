import { SragError } from '../../../core/index.ts';
import { publicSettings, type PublicSettings } from '../apps-script/settings.ts';
import { summarizeProgress, type ExtractionProgress } from '../extraction/extraction-progress.ts';
import { readDocuments } from '../sheets/documents-sheet.ts';
import { formulaRanges } from '../sheets/formula-ranges.ts';
import { readSchemaSheet } from '../sheets/read-schema-sheet.ts';
import { openRecordsSheet, readRecordsRows } from '../sheets/records-sheet.ts';

export type SidebarIntent = 'settings' | 'predict-schema' | 'extract-all' | 'extract-selection' | 'none';

export interface SidebarState {
  settings: PublicSettings;
  /** What the menu item that opened the sidebar asked for; read once. */
  intent: SidebarIntent;
  documents: number | null;
  schema: { attributes: number; title: string; ranges: { records: string; schema: string } } | { error: string };
  progress: ExtractionProgress;
}

const intentKey = 'srag.sidebarIntent';

export function rememberIntent(intent: SidebarIntent): void {
  CacheService.getUserCache().put(intentKey, intent, 120);
}

/** Everything the sidebar shows when it opens: it resumes a batch the status column says is unfinished. */
export function sidebarState(): SidebarState {
  const cache = CacheService.getUserCache();
  const intent = (cache.get(intentKey) as SidebarIntent | null) ?? 'none';
  cache.remove(intentKey);
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  let documents: number | null = null;
  try {
    documents = readDocuments(spreadsheet).length;
  } catch {
    documents = null;
  }
  let schema: SidebarState['schema'];
  let progress = summarizeProgress([]);
  try {
    const recordSchema = readSchemaSheet(spreadsheet);
    schema = { attributes: recordSchema.attributes.length, title: recordSchema.title, ranges: formulaRanges(recordSchema) };
    const layout = openRecordsSheet(spreadsheet, recordSchema);
    if (layout) progress = summarizeProgress(readRecordsRows(layout));
  } catch (error) {
    schema = { error: SragError.isInstance(error) ? `${error.message}${error.hint ? ` — ${error.hint}` : ''}` : String(error) };
  }
  return { settings: publicSettings(), intent, documents, schema, progress };
}

/** Just the batch's progress, for the sidebar's polling while chunks run (records are written per round trip). */
export function currentProgress(): ExtractionProgress {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  try {
    const layout = openRecordsSheet(spreadsheet, readSchemaSheet(spreadsheet));
    return summarizeProgress(layout ? readRecordsRows(layout) : []);
  } catch {
    return summarizeProgress([]);
  }
}
