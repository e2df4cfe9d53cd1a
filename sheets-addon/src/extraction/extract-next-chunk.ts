import { documentText, runExtraction, SragError, type DocumentSource } from '../../../core/index.ts';
import { createRequestLoop } from '../apps-script/create-request-loop.ts';
import { createResponseCache } from '../apps-script/cache-service-response-cache.ts';
import { readDriveFile } from '../apps-script/read-drive-file.ts';
import { requireModelSettings } from '../apps-script/settings.ts';
import { createModelClient } from '../model/create-model-client.ts';
import { loadPromptLibrary } from '../model/load-prompt-library.ts';
import { readDocumentsBySource } from '../sheets/documents-sheet.ts';
import { readSchemaSheet } from '../sheets/read-schema-sheet.ts';
import { openRecordsSheet, readRecordsRows, withDocumentLock, writeStatuses, type RecordsLayout } from '../sheets/records-sheet.ts';
import { documentPropertyKeys } from '../sheets/sheet-layout.ts';
import { claimRows, releaseClaim } from './claim-rows.ts';
import { summarizeProgress, type ExtractionProgress } from './extraction-progress.ts';
import { createSheetsRecordStore } from './sheets-record-store.ts';

export interface ChunkRequest {
  /** Made by the sidebar per call, so a failed call's rows can be given back (`releaseClaim`). */
  claimId: string;
  /** Documents this call extracts; their requests go out together in each `fetchAll`. */
  maxDocuments: number;
}

export interface ChunkResult {
  claimed: number;
  done: number;
  failed: number;
  /** True when Stop was pressed while this chunk ran. */
  stopped: boolean;
  progress: ExtractionProgress;
}

/**
 * The time one call may spend sending requests and waiting for retries. An execution is killed at
 * six minutes; what is still in flight at the budget's end finishes, so a chunk ends well inside.
 */
export const chunkBudgetMilliseconds = 4 * 60_000;

/**
 * Between round trips a chunk waits this long for the document lock to write its finished records;
 * when another execution holds it longer, the records stay buffered for the next round.
 */
const roundLockWaitMilliseconds = 5_000;

/**
 * After the last round a chunk waits for the lock until this long after it started, to write what
 * is still buffered, leaving time to give back its claim (30 s more) before the six-minute kill.
 */
const finalWriteMilliseconds = 5 * 60_000;

/**
 * One server call of a sidebar-driven batch: claim a chunk of queued rows, extract them together
 * (each round of model requests is one `fetchAll`), write each record as it completes, and give
 * back whatever is unfinished when the budget ends or Stop is pressed. A document that fails marks
 * its own row; errors that would fail every document (a refused key) end the call.
 */
export function extractNextChunk(request: ChunkRequest): ChunkResult {
  const startedAt = Date.now();
  const settings = requireModelSettings('sidebar');
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const schema = readSchemaSheet(spreadsheet);
  const layout = openRecordsSheet(spreadsheet, schema);
  if (!layout) {
    throw new SragError({ code: 'INPUT_INVALID', message: 'the Schema sheet changed since the batch started', hint: 'press Extract again to start over with the new schema' });
  }
  const maxDocuments = Math.max(1, Math.min(25, Math.floor(request.maxDocuments) || 1));
  const claimed = claimRows(layout, request.claimId, maxDocuments);
  if (claimed.length === 0) return { claimed: 0, done: 0, failed: 0, stopped: stopRequested(), progress: progressOf(layout) };

  const documentsBySource = readDocumentsBySource(spreadsheet, claimed.map((row) => row.source));
  const documentProperties = PropertiesService.getDocumentProperties();
  const loop = createRequestLoop({
    budgetMilliseconds: chunkBudgetMilliseconds,
    maxBatchSize: maxDocuments,
    shouldStop: () => documentProperties.getProperty(documentPropertyKeys.stopRequested) === '1',
  });
  const client = createModelClient(settings, loop, {
    maxConcurrency: maxDocuments,
    retry: { maxRetries: 4, baseDelayMs: 1_000, maxDelayMs: 20_000 },
    keepRepliesLonger: false,
  });
  const sources: DocumentSource[] = claimed.map((row) => ({
    source: row.source,
    async read() {
      const document = documentsBySource.get(row.source);
      if (!document) throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${row.source} is no longer in the Documents sheet` });
      if (document.driveFileId === undefined) return document.text;
      const file = await readDriveFile(loop, document.driveFileId, row.source);
      return documentText(file.name, file.content);
    },
  }));
  // The same CacheService the client keeps its replies in (createModelClient opens its own view of it).
  const records = createSheetsRecordStore(layout, schema, [settings.apiKey], createResponseCache({ keepLonger: false }));
  let done = 0;
  let failed = 0;
  let failure: unknown;
  try {
    loop.run(() => runExtraction({
      client,
      prompts: loadPromptLibrary(),
      schema,
      documents: sources,
      store: records.store,
      retryFailed: true,
      concurrency: claimed.length,
      model: settings.model,
      cancellation: loop.abortSignal,
      onProgress: (progress) => {
        if (progress.outcome === 'done') done += 1;
        if (progress.outcome === 'failed') failed += 1;
      },
    }), 'extracting a chunk of documents', { beforeEachRound: () => records.flush({ waitUntil: Date.now() + roundLockWaitMilliseconds }) });
  } catch (error) {
    // Stopping at the budget or on Stop is how a chunk ends early, not a failure.
    if (!loop.abortSignal.aborted) failure = error;
  }
  const unwritten = records.flush({ waitUntil: startedAt + finalWriteMilliseconds });
  if (unwritten > 0) {
    // The lock never came: giving the claim back would wait for it again past the six minutes.
    throw failure ?? new SragError({
      code: 'TIME_LIMIT',
      message: `${unwritten} finished record(s) could not be written: another execution held the Records sheet's lock until this one's time was nearly up`,
      hint: 'their rows go back to the queue and are extracted again from cached replies; fewer calls at once make this rarer',
    });
  }
  releaseClaim(layout, request.claimId, loop.abortSignal.reason === 'stop' ? 'stopped' : 'queued');
  if (failure !== undefined) throw failure;
  return { claimed: claimed.length, done, failed, stopped: loop.abortSignal.reason === 'stop', progress: progressOf(layout) };
}

function stopRequested(): boolean {
  return PropertiesService.getDocumentProperties().getProperty(documentPropertyKeys.stopRequested) === '1';
}

function progressOf(layout: RecordsLayout): ExtractionProgress {
  return summarizeProgress(readRecordsRows(layout));
}

/** Stop: queued rows become `stopped`; running chunks stop after their current round trip. */
export function stopExtraction(): ExtractionProgress {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const layout = openRecordsSheet(spreadsheet, readSchemaSheet(spreadsheet));
  PropertiesService.getDocumentProperties().setProperty(documentPropertyKeys.stopRequested, '1');
  if (!layout) return summarizeProgress([]);
  return withDocumentLock(() => {
    const queued = readRecordsRows(layout).filter((row) => row.status === 'queued');
    writeStatuses(layout, queued, () => 'stopped');
    return summarizeProgress(readRecordsRows(layout));
  });
}
