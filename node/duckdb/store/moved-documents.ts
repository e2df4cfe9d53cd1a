import type { DocumentSource, ExtractionStore, IngestionLogEntry, RecordSchema } from '../../../core/index.ts';
import { fileIsThere } from '../../runtime/file-is-there.ts';
import { relativeSourceSql } from './adopt-relative-sources.ts';
import { recordTarget, transaction, type IngestExtractionStore, type SragStore } from './srag-store.ts';
import { removeSources } from './store-writes.ts';

/** What became of a table's documents that are no longer where it read them, in one ingest. */
export interface MovedDocuments {
  /** Records now under a document's new path: the same content was found there, its old path is gone. */
  moved: Array<{ from: string; to: string }>;
  /** Documents whose files are gone and were not found elsewhere among the given ones: their records stay, unless pruned. */
  gone: string[];
  /** True when `gone`'s records, evidence and log entries were removed (`prune`). */
  pruned: boolean;
}

/**
 * Paths checked for whether their files are still there between two turns of the event loop.
 * Synchronously: an asynchronous `stat` costs ~18 µs a path (a rejected promise per missing file),
 * a synchronous one ~4.5 µs.
 */
const statsPerTurn = 10_000;

/**
 * A document's identity is its canonical path, so a file that was moved or renamed since it was
 * ingested would come back as a new document: extracted again (paid again) and counted twice in
 * every answer, next to the record of a file that no longer exists.
 *
 * The extraction store `log`, for a run over `documents`, made to follow such files: before the
 * run it reads the log entries of `documents` (its first `logEntries` call is answered with them
 * rather than reading them again) and looks for the table's other documents whose files are gone
 * (not found at their paths). The run hashes each document it reads anyway; one the log does not
 * know whose content equals a gone document's takes over its record through `followMoved` — row,
 * child items, evidence and log entry, moved in the store's group commit with its saves — and is
 * then found unchanged: no call, no second row. `settled()` waits for
 * every move to be committed (and throws a `STORE_FAILED` error if one was not). With `plan`,
 * nothing is moved: a dry run hears what would be. Afterwards `gone()` lists the gone documents
 * that have a record and no run document took over, `goneWithoutRecord()` the others (failed or
 * empty: only their log entries remain).
 *
 * Its cost when no document of the table is outside `documents` (a rerun of the same glob): one
 * count. Otherwise one anti-join in DuckDB (~2 s for a million names) and a `stat` per document
 * outside (~4.5 µs each). No document is read twice.
 */
export async function followingMovedDocuments(store: SragStore, log: IngestExtractionStore, { table, documents, plan = false }: {
  table: string; documents: readonly DocumentSource[]; plan?: boolean;
}): Promise<ExtractionStore & { moved: MovedDocuments['moved']; gone(): string[]; goneWithoutRecord(): string[]; settled(): Promise<void> }> {
  const entries: ReadonlyMap<string, IngestionLogEntry> = await log.logEntries(documents.map((document) => document.source));
  const goneEntries = await goneOutside(store, table, [...entries.keys()]);
  const goneSources = goneEntries.map((entry) => entry.source);
  const byContent = new Map<string, IngestionLogEntry[]>();
  if (goneSources.length > 0 && entries.size < documents.length) {
    for (const entry of (await log.logEntries(goneSources)).values()) {
      if (entry.contentHash) byContent.set(entry.contentHash, [...byContent.get(entry.contentHash) ?? [], entry]);
    }
  }
  const moved: MovedDocuments['moved'] = [];
  // A move goes into the store's group commit, and the run does not wait for it: a move lost to a
  // crash is found and made again by the next run, since the file is still gone and its new path
  // still unknown to the log. A record saved for the moved document later (its missing
  // attributes) joins the same transaction or a later one, and a transaction applies its moves first.
  const commits: Array<Promise<void>> = [];
  let failure: unknown;
  const notMoved = (gone: Array<{ source: string }>) => {
    const movedFrom = new Set(moved.map((item) => item.from));
    return gone.map((entry) => entry.source).filter((source) => !movedFrom.has(source));
  };
  let atHand: ReadonlyMap<string, IngestionLogEntry> | undefined = entries;
  return {
    ...log,
    moved,
    settled: async () => {
      await Promise.all(commits);
      if (failure !== undefined) throw failure;
    },
    gone: () => notMoved(goneEntries.filter((entry) => entry.hasRecord)),
    goneWithoutRecord: () => notMoved(goneEntries.filter((entry) => !entry.hasRecord)),
    logEntries: async (sources) => {
      const answer = atHand;
      atHand = undefined;
      return answer ?? log.logEntries(sources);
    },
    followMoved: async (source, contentHash) => {
      const candidates = byContent.get(contentHash);
      const entry = candidates?.shift();
      if (!entry) return undefined;
      if (candidates!.length === 0) byContent.delete(contentHash);
      if (failure !== undefined) throw failure;
      if (!plan) {
        commits.push(log.moveRecord(entry.source, source).catch((error: unknown) => {
          failure ??= error;
        }));
      }
      moved.push({ from: entry.source, to: source });
      return { ...entry, source };
    },
  };
}

/**
 * The table's documents other than `named` whose files are gone from their paths. A million of
 * them cross into JavaScript as one JSON text. (An anti-join over the names cast from JSON: ~2 s
 * for a million, where NOT IN over from_json's took ~5 s.)
 */
async function goneOutside(store: SragStore, table: string, named: string[]): Promise<Array<{ source: string; hasRecord: boolean }>> {
  const others = await store.exclusive(async (connection) => {
    const logged = Number((await connection.runAndReadAll(
      `SELECT count(*) FROM srag_ingestion_log WHERE table_name = $1 AND NOT (${relativeSourceSql})`, [table],
    )).getRowsJS()[0]![0]);
    if (logged <= named.length) return [] as Array<{ source: string; hasRecord: boolean }>;
    // Two lists: every source, and the few without a record (failed or empty) by themselves.
    const [sources, withoutRecord] = (await connection.runAndReadAll(
      `SELECT coalesce(to_json(list(source)), '[]'), coalesce(to_json(list(source) FILTER (WHERE status <> 'done')), '[]') FROM srag_ingestion_log
       ANTI JOIN (SELECT unnest(CAST($2 AS JSON)::VARCHAR[]) AS given) ON source = given
       WHERE table_name = $1 AND NOT (${relativeSourceSql})`,
      [table, JSON.stringify(named)],
    )).getRowsJS()[0]!.map((cell) => JSON.parse(String(cell)) as string[]);
    const noRecord = new Set(withoutRecord);
    return sources!.map((source) => ({ source, hasRecord: !noRecord.has(source) }));
  });
  const gone: typeof others = [];
  for (let start = 0; start < others.length; start += statsPerTurn) {
    for (const entry of others.slice(start, start + statsPerTurn)) if (!fileIsThere(entry.source)) gone.push(entry);
    // A server's other requests get a turn between slices.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return gone;
}

/** Removes the records of `sources` — rows, child items, evidence, log entries — in one transaction, and refreshes the table's statistics. */
export async function pruneDocuments(store: SragStore, { table, schema, sources }: { table: string; schema: RecordSchema; sources: readonly string[] }): Promise<void> {
  if (sources.length === 0) return;
  await store.exclusive((connection) => transaction(connection, () => removeSources(connection, recordTarget(table, schema), sources)));
  await store.extractionStore(table, schema).refreshStatistics();
}
