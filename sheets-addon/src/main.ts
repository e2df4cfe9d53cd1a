import { releaseClaim as releaseRows } from './extraction/claim-rows.ts';
import { extractNextChunk as extractChunk, stopExtraction as stopBatch, type ChunkRequest } from './extraction/extract-next-chunk.ts';
import { prepareExtraction, type PrepareExtractionRequest } from './extraction/prepare-extraction.ts';
import { saveSettings as saveModelSettings, type SettingsInput } from './apps-script/settings.ts';
import { sragAsk } from './custom-functions/srag-ask.ts';
import { sragExtract } from './custom-functions/srag-extract.ts';
import { addDriveFiles as addPickedFiles, type PickedFile } from './drive-picker/add-drive-files.ts';
import { drivePickerSettings } from './drive-picker/drive-picker-settings.ts';
import { buildMenu, openDrivePicker, openSidebar } from './menu/menu.ts';
import { importSchemaJson as importSchema, predictSchemaFromDocuments as predictSchema, setUpSheets as createSheets, type PredictSchemaRequest } from './server/schema-actions.ts';
import { refreshAskQueries } from './server/refresh-ask-queries.ts';
import { serverFunction } from './server/server-function.ts';
import { currentProgress, sidebarState } from './server/sidebar-state.ts';
import { readSchemaSheet } from './sheets/read-schema-sheet.ts';
import { openRecordsSheet } from './sheets/records-sheet.ts';

/**
 * The add-on's entry points, and nothing else: each translates between Apps Script and one
 * function of the add-on. build.mjs exposes every export named in `globalFunctions` at top level.
 */
export { globalFunctions } from './global-functions.ts';
/** Not an entry point: lets the bundle test compare the inlined prompts with prompts/*.md. */
export { loadPromptLibrary } from './model/load-prompt-library.ts';

export function onOpen(): void {
  buildMenu();
}

export function onInstall(): void {
  buildMenu();
}

export const showSidebar = () => openSidebar('none');
export const showSettings = () => openSidebar('settings');
export const showPredictSchema = () => openSidebar('predict-schema');
export const menuExtractAll = () => openSidebar('extract-all');
export const menuExtractSelection = () => openSidebar('extract-selection');
export const menuStopExtraction = serverFunction(() => {
  const progress = stopBatch();
  SpreadsheetApp.getActiveSpreadsheet().toast(`Stopping: ${progress.done} of ${progress.total} rows done.`, 'srag');
});

export const menuAddDriveFiles = () => openDrivePicker();
export const getDrivePickerSettings = serverFunction(drivePickerSettings);
export const addDriveFiles = serverFunction((files: PickedFile[]) => {
  const added = addPickedFiles(files);
  SpreadsheetApp.getActiveSpreadsheet().toast(`${added.added} file(s) added to Documents${added.skipped ? `, ${added.skipped} already there` : ''}.`, 'srag');
  return added;
});
export const menuRefreshAskQueries = serverFunction(() => {
  const refreshed = refreshAskQueries();
  SpreadsheetApp.getActiveSpreadsheet().toast(`${refreshed.formulas} SRAG_ASK formula(s) recalculate with queries written from the current rows.`, 'srag');
  return refreshed;
});

export const getSidebarState = serverFunction(sidebarState);
export const getProgress = serverFunction(currentProgress);
export const saveSettings = serverFunction((input: SettingsInput) => saveModelSettings(input ?? {}));
export const setUpSheets = serverFunction(createSheets);
export const predictSchemaFromDocuments = serverFunction((request: PredictSchemaRequest) => predictSchema(request ?? { questions: [] }));
export const importSchemaJson = serverFunction((text: string) => importSchema(text));
export const startExtraction = serverFunction((request: PrepareExtractionRequest) => prepareExtraction(request ?? { scope: 'all' }));
export const extractNextChunk = serverFunction((request: ChunkRequest) => extractChunk(request));
export const stopExtraction = serverFunction(stopBatch);
export const releaseClaim = serverFunction((claimId: string) => {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const layout = openRecordsSheet(spreadsheet, readSchemaSheet(spreadsheet));
  return layout ? releaseRows(layout, String(claimId), 'queued') : 0;
});

export function SRAG_EXTRACT(text: unknown, schemaRange: unknown) {
  return sragExtract(text, schemaRange);
}

export function SRAG_ASK(question: unknown, recordsRange: unknown, withQuery?: unknown) {
  return sragAsk(question, recordsRange, withQuery);
}
