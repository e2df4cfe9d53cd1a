import { redactSecrets, type AttributeEvidence, type ExtractionStore, type IngestionLogEntry, type RecordSchema, type ResponseCache, type StoredRecord } from '../../../core/index.ts';
import { toCellValue } from '../sheets/cell-values.ts';
import { tryDocumentLock, type RecordsLayout } from '../sheets/records-sheet.ts';

export interface SheetsRecordStore {
  store: ExtractionStore;
  /**
   * Writes the records saved since the last write, under one document lock, waiting for the lock
   * until `waitUntil` (epoch milliseconds). A record leaves the buffer only once its row is
   * written: when the lock stays taken, the records wait for the next flush. Returns how many
   * records are still waiting.
   */
  flush({ waitUntil }: { waitUntil: number }): number;
}

/**
 * The extraction run's store over the Records sheet. Saves are buffered and written together
 * before the request loop's next round trip (one lock, one read of the source column, three calls
 * per row: formats, values, notes): every Apps Script service call costs real time. A row is found
 * by `_source`, since the user may sort the sheet while a batch runs. Each value's quote becomes
 * the cell's note, so the evidence is a hover away. The row write is what makes a document done: a
 * batch that stops anywhere resumes from the status column, which is also why the run is handed no
 * log (the claimed rows are the ones to extract). An empty document's row is done, its issue says
 * why it has no values. `responseCache` is the one the batch's model client keeps replies in.
 */
export function createSheetsRecordStore(layout: RecordsLayout, schema: RecordSchema, secrets: Array<string | undefined>, responseCache: ResponseCache): SheetsRecordStore {
  const pending = new Map<string, { cells: Array<string | number | boolean>; notes: string[] }>();
  const formats = layout.header.map((_, index) => {
    const attribute = schema.attributes[index - 1];
    return attribute?.kind === 'date' ? 'yyyy-mm-dd' : attribute?.kind === 'string' ? '@' : 'General';
  });
  const writePending = () => {
    const last = layout.sheet.getLastRow();
    const sources = last < 2 ? [] : layout.sheet.getRange(2, layout.column.source + 1, last - 1, 1).getValues().map(([source]) => String(source));
    for (const [source, { cells, notes }] of [...pending.entries()]) {
      const index = sources.indexOf(source);
      if (index >= 0) {
        const range = layout.sheet.getRange(index + 2, 1, 1, layout.header.length);
        // Formats first: a text cell set to plain text keeps "2001-05" or "1,250" as written.
        range.setNumberFormats([formats]);
        range.setValues([cells]);
        range.setNotes([notes]);
      }
      // Written, or its row is gone from the sheet (the user deleted it): nothing left to keep.
      pending.delete(source);
    }
  };
  const flush = ({ waitUntil }: { waitUntil: number }) => {
    if (pending.size > 0) tryDocumentLock(waitUntil - Date.now(), writePending);
    return pending.size;
  };
  const store: ExtractionStore = {
    async logEntries() {
      return new Map<string, IngestionLogEntry>();
    },
    async saveRecord(record: StoredRecord) {
      const evidence = new Map<string, AttributeEvidence>(record.evidence.map((entry) => [entry.attribute, entry]));
      const issues = record.issues.map((issue) => `${issue.attribute}: ${issue.message}`).join('\n');
      pending.set(record.source, {
        cells: [
          record.source,
          ...schema.attributes.map((attribute) => toCellValue(record.values[attribute.name] ?? null, attribute.kind)),
          'done',
          redactSecrets(issues, secrets),
          record.contentHash,
        ],
        notes: ['', ...schema.attributes.map((attribute) => evidence.get(attribute.name)?.quote ?? ''), '', '', ''],
      });
    },
    async saveLogEntry({ source, contentHash, status, error }) {
      pending.set(source, {
        cells: [source, ...schema.attributes.map(() => ''), status === 'empty' ? 'done' : 'failed', redactSecrets(error ?? '', secrets), contentHash],
        notes: layout.header.map(() => ''),
      });
    },
    responseCache,
    async refreshStatistics() {
      // =SRAG_ASK computes the statistics of the range it is given.
    },
  };
  return { store, flush };
}
