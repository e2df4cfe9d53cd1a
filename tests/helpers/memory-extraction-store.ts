import type { CachedResponse, ExtractionStore, IngestionLogEntry, StoredRecord } from '../../core/index.ts';

/** An extraction store in memory: the log, the saved records and the response cache, for tests that run core's extraction over real replies. */
export function memoryExtractionStore() {
  const log = new Map<string, IngestionLogEntry>();
  const records = new Map<string, StoredRecord>();
  const cache = new Map<string, CachedResponse>();
  const store: ExtractionStore = {
    logEntries: async () => log,
    saveRecord: async (record) => {
      records.set(record.source, record);
      log.set(record.source, { source: record.source, contentHash: record.contentHash, status: 'done', error: null, values: record.values });
    },
    saveLogEntry: async (entry) => {
      log.set(entry.source, { ...entry });
    },
    responseCache: { get: async (key) => cache.get(key), set: async (key, response) => { cache.set(key, response); } },
    refreshStatistics: async () => {},
  };
  return { store, log, records };
}
