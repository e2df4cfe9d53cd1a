import { documentText, SragError, type ContextDocument, type DocumentSource } from '../../../core/index.ts';
import { friendlyPath } from '../../runtime/friendly-path.ts';
import { readDocumentFile } from '../../runtime/read-document-file.ts';
import type { SragStore } from '../../duckdb/store/srag-store.ts';

/**
 * The documents the rag and full-corpus baselines read: `documents` (the files `--docs` matched), or else the
 * documents the table was ingested from (its ingestion log: their canonical paths), so that
 * every system answers from the same corpus. Sorted by path.
 */
export async function readBaselineDocuments({ documents, store, table }: { documents?: DocumentSource[]; store?: SragStore; table?: string }): Promise<ContextDocument[]> {
  if (documents?.length) {
    return Promise.all(documents.map(async (document) => ({ source: document.label ?? document.source, text: documentText(document.source, await document.read()) })));
  }
  const tables = store ? await store.tables() : [];
  if (!store || tables.length === 0) {
    throw new SragError({ code: 'INPUT_INVALID', message: 'the rag and full-corpus baselines need the documents', hint: 'pass --docs "docs/*.html" (or --db with an ingested table, whose documents are then used)' });
  }
  const info = await store.tableInfo(table);
  const log = await store.extractionStore(info.table, info.schema).logEntries();
  const sources = [...log.values()].filter((entry) => entry.status === 'done').map((entry) => entry.source).sort();
  const hint = `it was ingested into "${info.table}": pass --docs GLOB if the files moved`;
  return Promise.all(sources.map(async (source) => ({ source: friendlyPath(source), text: documentText(source, await readDocumentFile(source, { hint })) })));
}
