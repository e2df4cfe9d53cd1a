import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  attributeDefinitionHash, childRecordSchema, childTableName, firstLine, parseRecordSchema, recordSchemaToJsonSchema, sqlTypeForKind, SragError,
  type CachedResponse, type ColumnStatistics, type ExtractionStore, type ExtractorStore, type IngestionLogEntry, type RecordSchema, type ResponseCache,
  type StoredRecord, type SynthesizedExtractor,
} from '../../../core/index.ts';
import type { ParameterAdaptation } from '../../../openai-wire/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { readSqlResult } from '../read-sql-result.ts';
import { extractRecordTable } from './extract-record-table.ts';
import type { JournalEntry } from './journal-entry.ts';
import { keptReplyText } from './kept-reply-text.ts';
import { ReplyJournal } from './reply-journal.ts';
import { emptyJournal, readJournalSlices, StoreJournal, type JournalSlice } from './store-journal.ts';
import { openDuckDbFile, type OpenDuckDbFileOptions } from './open-duckdb-file.ts';
import { declareChildLink } from '../catalog/declare-child-link.ts';
import { refreshTableProfile } from '../catalog/refresh-table-profile.ts';
import { gatherCalls } from './gather-calls.ts';
import { queryColumnStatistics } from './query-column-statistics.ts';
import { hashText } from '../../runtime/hash-text.ts';
import { compareSchemas, type SchemaChange } from './compare-schemas.ts';
import { addedColumns, storeTablesSql } from './store-tables.ts';
import { bufferCacheTrimmer, checkpointBufferCacheBytes, checkpointSoonBytes, ingestBufferCacheBytes, memoryLimitSql } from './trim-buffer-cache.ts';
import { moveSources, textLiterals, writeCacheEntries, writeLogEntries, writeRecords, type CacheWrite, type LogWrite, type RecordTarget } from './store-writes.ts';

/**
 * The extraction store of a table `srag ingest` fills, with one write more than the run's port:
 * `moveRecord` moves a document's record (row, child items, evidence, log entry) to a new source
 * in the same group commit as the saves, so a save made after it for the new source comes after it.
 */
export type IngestExtractionStore = ExtractionStore & { moveRecord(from: string, to: string): Promise<void> };

/** Where the records of `table`, made by `srag ingest` with `schema`, are kept: its table, child tables and log name. */
export function recordTarget(table: string, schema: RecordSchema): RecordTarget {
  return {
    quotedTable: quoteIdentifier(table), logName: table, schema,
    children: (schema.entities ?? []).map((entity) => ({ entity, quotedTable: quoteIdentifier(childTableName(table, entity.name)), logName: childTableName(table, entity.name) })),
  };
}

/** `recordTarget`, its tables' rows through DuckDB's appender (see `RecordTarget.appendTable`): the ingest's group commit's. */
function appendingRecordTarget(table: string, schema: RecordSchema): RecordTarget {
  const target = recordTarget(table, schema);
  return { ...target, appendTable: table, children: target.children!.map((child) => ({ ...child, appendTable: child.logName })) };
}

export interface TableInfo {
  table: string;
  schema: RecordSchema;
  statistics: ColumnStatistics[];
}

/**
 * What the SQL functions' bridge is handed when the database opens. Not the ingestion logs of
 * `srag_extract`'s schemas: those are read for the documents a scan names, when it starts.
 */
export interface BridgeStart {
  /** The schemas `srag_extract` was called with before. */
  schemaKeys: string[];
  /** Replies other than extraction replies (questions, SQL, answers), for `srag_ask`. */
  cache: Array<[key: string, response: CachedResponse]>;
}

/**
 * Journal entries applied per transaction, with one commit (~30 ms) each: ~1,400 pages of a scan
 * that shares calls (a record each, a reply per ten), a few MB of entries at hand, not the journal.
 * The apply of 100,000 pages' journal peaked at 485–536 MB so, against 747–755 MB with 5,000 (the
 * entries parsed at once, and the heap and the allocator growing past them), for 28 → 36 s of CPU.
 */
const journalEntriesPerTransaction = 1_500;

/**
 * DuckDB's memory limit while the journal file is applied (set back after). A checkpoint rewrites
 * a row group it appended to, and merges small ones into larger: with srag_cache's replies of
 * ~10 KB, a row group of them is hundreds of MB, read through the buffer pool — which, under the
 * default limit (80% of the machine), kept all of it. The apply of 405,000 pages' journal peaked
 * at 906 MB so (a merge of the cache's row groups, between 250,000 and 300,000 pages), 609 MB
 * under this limit; nothing the apply pins comes near it (the slice's rows, the keys' index nodes).
 */
const journalApplyMemoryBytes = 256 * 1024 * 1024;

/**
 * How long after an ingest's group commit started the next one may start (see `extractionStore`).
 * A commit costs ~10 ms of CPU however few rows it holds: BEGIN, an appender per table, COMMIT, the
 * buffer-pool trim. When replies arrive slower than srag reads them — an endpoint that answers
 * steadily rather than in bursts — each commit took the one reply that had come in meanwhile:
 * 3,000 pages with 4 calls in flight, 50 ms each, made 171 commits for 1.9–2.0 ms/doc of CPU (44
 * and 1.4–1.6 with this wait); against a stand-in slowed by a large corpus, 455–630 commits for
 * 2.7–2.8 ms/doc (1.3). What waits costs nothing: each reply is in the reply journal the moment it
 * is read, and the run does not wait for a save before its next call. A commit that took longer
 * (replies in bursts) is followed at once, as before: a wait after those, counted from its end,
 * held more rows at each commit and took 100,000 pages from 309–333 to 388–398 MB at peak.
 */
const groupCommitGapMilliseconds = 100;

/**
 * One DuckDB file holding record tables, their schemas and statistics, the ingestion log, the
 * evidence per value and the response cache — and the only writer of those tables. All
 * statements go through one connection in order (`exclusive`), so a transaction never interleaves
 * with another write. Record tables of `srag ingest` live in `main`; those `srag_extract` fills, in
 * the `srag_extract` schema (see `extractRecordTable`).
 */
export class SragStore {
  private queue: Promise<unknown> = Promise.resolve();
  /** False for a read-only file an older srag wrote: no endpoint per reply, no kept adaptations. */
  private knowsEndpoints = true;
  /** srag_cache's columns that hold a reply's text (see `keptReplyText`): a read-only file an older srag wrote has no deflated one. */
  private replyTextColumns = 'response, response_deflated';
  /** Where an extraction run's replies go as they arrive (see `ReplyJournal`), opened on the first. */
  private replyJournal: ReplyJournal | undefined;
  /** A database in memory: the directory of its journal file (see `journalFile`), made when first asked for. */
  private memoryJournalDirectory: string | undefined;
  /**
   * Extraction replies journaled and not yet in srag_cache (see `extractionStore`), by key: a
   * lookup finds them here meanwhile.
   */
  private readonly arrivingReplies = new Map<string, CachedResponse>();
  /** Cache lookups asked for meanwhile share one query (see `lookUpReply`). */
  private readonly gatheredLookup = gatherCalls<string, CachedResponse | undefined>((turn) => this.exclusive(turn), (connection, keys) => this.lookUpReplies(connection, keys));
  /**
   * Writes a reply to srag_cache with the others kept meanwhile, in one statement and one commit:
   * `srag eval` and a busy `srag serve` keep many replies at once, and a commit each cost DuckDB
   * ~10 ms of CPU (26 questions × 3 systems: 333 commits, ~3.3 s of a ~7.5 s evaluation). Resolves
   * once the reply is on disk, as a write of its own did.
   */
  private readonly keepReply = gatherCalls<CacheWrite, void>((turn) => this.exclusive(turn), (connection, replies) => this.writeReplies(connection, replies));
  /**
   * DuckDB's memory limit as first read, set back after each journal apply. DuckDB shows it rounded
   * (`18.8 GiB`) and takes that back as a little less: read again after each apply, it would creep down.
   */
  private memoryLimit: string | undefined;
  /** Drops the file's blocks DuckDB keeps beyond what an ingest needs (see `bufferCacheTrimmer`). */
  private readonly trimBufferCache = bufferCacheTrimmer(ingestBufferCacheBytes);

  private constructor(readonly path: string, readonly instance: DuckDBInstance, readonly connection: DuckDBConnection, readonly readOnly: boolean) {}

  /** Opens (or creates) the file; see `openDuckDbFile` for what is refused. */
  static async open(path: string, options: OpenDuckDbFileOptions = {}): Promise<SragStore> {
    const { instance, readOnly } = await openDuckDbFile(path, options);
    const connection = await instance.connect();
    // A read-only file is queried as it is; one srag never wrote to has no srag tables to read.
    if (!readOnly) await createStoreTables(connection);
    const store = new SragStore(path, instance, connection, readOnly);
    if (!readOnly) {
      await store.applyJournal();
      await store.applyReplyJournal();
    }
    // A read-only file an older srag wrote was not brought up to date: its cache names no endpoint.
    else {
      const cacheColumns = new Set((await connection.runAndReadAll("SELECT column_name FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = 'srag_cache'")).getRowsJS().map(([name]) => String(name)));
      store.knowsEndpoints = cacheColumns.has('endpoint');
      if (!cacheColumns.has('response_deflated')) store.replyTextColumns = 'response, NULL';
    }
    return store;
  }

  /** Run `work` after every earlier store operation, alone on the connection. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => work(this.connection));
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    try {
      this.replyJournal?.close();
      // Every reply in srag_cache: the file has nothing the next open would need.
      if (this.replyJournal && this.arrivingReplies.size === 0) ReplyJournal.remove(this.path);
    } finally {
      this.connection.closeSync();
      this.instance.closeSync();
      if (this.memoryJournalDirectory) rmSync(this.memoryJournalDirectory, { recursive: true, force: true });
    }
  }

  /** Moves the replies a killed run left in `<database>.replies` into srag_cache, then removes the file. */
  private async applyReplyJournal(): Promise<void> {
    if (this.path.startsWith(':memory:')) return;
    const replies = ReplyJournal.read(this.path);
    if (replies.length) {
      await this.exclusive((connection) => transaction(connection, () => writeCacheEntries(connection, replies.map(({ key, response }) => ({ key, response, purpose: 'extraction' })))));
    }
    ReplyJournal.remove(this.path);
  }

  /**
   * Create the record table for `schema` (and a table per child entity, see `childTableName`), or
   * bring an existing one to it, and return the schema the table now has (see `SchemaChange`). A
   * table's schema grows, it never shrinks: an attribute the new schema lacks keeps its column and
   * values (it may have been added by `srag ask --extend-schema`), and stays in the table's schema
   * after the new ones. A new attribute gets a NULL column; one whose definition changed has its
   * values and evidence cleared (and its type changed), so the column never mixes values of two
   * definitions; the ingestion log then says which attributes each record lacks, and the next run
   * extracts only those. The child entities cannot change on an existing table (see
   * `changeTableSchema`). A child table is registered in `srag_tables` with the entity as its own
   * schema, so that the catalog, statistics and `srag ask` treat it as any table; the catalog finds
   * its parent from the parent's schema.
   */
  async registerTable(table: string, schema: RecordSchema): Promise<SchemaChange> {
    this.refuseWrites('ingest into it');
    const children = (schema.entities ?? []).map((entity) => ({ entity, name: childTableName(table, entity.name) }));
    return this.exclusive(async (connection) => {
      const existing = (await connection.runAndReadAll('SELECT schema_json FROM srag_tables WHERE table_name = $1', [table])).getRowsJS()[0];
      if (existing) {
        const stored = parseRecordSchema(JSON.parse(String(existing[0])), `table "${table}"`);
        let change: SchemaChange | undefined;
        await transaction(connection, async () => {
          change = await changeTableSchema(connection, table, stored, String(existing[0]), schema, this.path);
        });
        // As with the store's own columns (see `addedColumns`): an ALTER is not left in the write-ahead log.
        if (change!.added.length || change!.changed.length) await connection.run('CHECKPOINT');
        return change!;
      }
      for (const name of [table, ...children.map((child) => child.name)]) {
        const clash = (await connection.runAndReadAll("SELECT 1 FROM duckdb_tables() WHERE table_name = $1 AND schema_name = 'main'", [name])).getRowsJS()[0];
        if (!clash) continue;
        throw new SragError({
          code: 'INPUT_INVALID',
          message: name === table ? `table "${table}" already exists in ${this.path} and was not made by srag` : `table "${name}" (for the entity "${name.slice(table.length + 2)}" of "${table}") already exists in ${this.path}`,
          hint: name === table ? 'choose another name' : `choose another name, or drop "${name}" first`,
          fix: { kind: 'rename-table', table, ...(name === table ? {} : { drop: name }) },
        });
      }
      await transaction(connection, async () => {
        await connection.run(createRecordTableSql(quoteIdentifier(table), schema));
        await connection.run('INSERT INTO srag_tables (table_name, title, schema_json) VALUES ($1, $2, $3)', [table, schema.title, JSON.stringify(recordSchemaToJsonSchema(schema))]);
        for (const { entity, name } of children) {
          const childSchema = childRecordSchema(entity);
          await connection.run(createChildTableSql(quoteIdentifier(name), childSchema));
          await connection.run('INSERT INTO srag_tables (table_name, title, schema_json) VALUES ($1, $2, $3)', [name, childSchema.title, JSON.stringify(recordSchemaToJsonSchema(childSchema))]);
        }
      });
      return { schema, added: [], changed: [], kept: [] };
    });
  }

  /**
   * The documents whose record lacks one of the schema's attribute definitions (a back-fill's work),
   * found by the ingestion log alone: a table whose records are complete costs one query.
   */
  incompleteSources(table: string, schema: RecordSchema): Promise<string[]> {
    const hashes = schema.attributes.map((attribute) => attributeDefinitionHash(attribute, hashText));
    return this.exclusive(async (connection) => {
      const lacking = hashes.map((_, index) => `attribute_hashes NOT LIKE $${index + 2}`).join(' OR ');
      const rows = (await connection.runAndReadAll(
        `SELECT source FROM srag_ingestion_log WHERE table_name = $1 AND status = 'done' AND (attribute_hashes IS NULL OR ${lacking}) ORDER BY source`,
        [table, ...hashes.map((hash) => `%"${hash}"%`)],
      )).getRowsJS();
      return rows.map((row) => String(row[0]));
    });
  }

  tables(): Promise<string[]> {
    return this.exclusive(async (connection) => {
      if (!(await hasTable(connection, 'srag_tables'))) return [];
      return (await connection.runAndReadAll('SELECT table_name FROM srag_tables ORDER BY table_name')).getRowsJS().map((row) => String(row[0]));
    });
  }

  /**
   * The named table, or the only one when no name is given — a corpus's child tables (its
   * entities' items) do not count, they go with their parent; errors list what exists.
   */
  async tableInfo(table?: string): Promise<TableInfo> {
    const names = await this.tables();
    const children = table === undefined && names.length > 1 ? await this.childTables() : undefined;
    const documentTables = children ? names.filter((name) => !children.has(name)) : names;
    const chosen = table ?? (documentTables.length === 1 ? documentTables[0] : undefined);
    if (!chosen || !names.includes(chosen)) {
      throw new SragError({
        code: 'TABLE_NOT_FOUND',
        message: names.length === 0
          ? `no srag table in ${this.path}`
          : table ? `no srag table "${table}" in ${this.path}` : `${this.path} holds several tables (${names.join(', ')})`,
        ...(names.length === 0
          ? { hint: 'run `srag ingest <glob> --schema FILE` first (or pass the right --db)' }
          : { hint: `name one of: ${names.join(', ')}`, fix: { kind: 'name-table' as const, choices: names } }),
      });
    }
    const row = await this.exclusive(async (connection) =>
      (await connection.runAndReadAll('SELECT schema_json, statistics_json FROM srag_tables WHERE table_name = $1', [chosen])).getRowsJS()[0]!);
    return {
      table: chosen,
      schema: parseRecordSchema(JSON.parse(String(row[0])), `table "${chosen}"`),
      statistics: row[1] ? (JSON.parse(String(row[1])) as ColumnStatistics[]) : [],
    };
  }

  /** The child entities' tables their parents' schemas declare: child table → its parent and the entity. */
  async childTables(): Promise<Map<string, { parent: string; entity: string }>> {
    const rows = await this.exclusive(async (connection) => (await hasTable(connection, 'srag_tables'))
      ? (await connection.runAndReadAll(`SELECT table_name, schema_json FROM srag_tables WHERE schema_json LIKE '%"entities"%'`)).getRowsJS()
      : []);
    return new Map(rows.flatMap(([parent, json]) => Object.keys((JSON.parse(String(json)) as { entities?: Record<string, unknown> }).entities ?? {})
      .map((entity): [string, { parent: string; entity: string }] => [childTableName(String(parent), entity), { parent: String(parent), entity }])));
  }

  /**
   * Recompute Appendix-D statistics of the table (and of its child entities' tables) and store them
   * with it, with the catalog profile that follows the rows (values, sketches, links to other
   * tables, for table choice). DuckDB aggregates the rows itself (`queryColumnStatistics`): the rows
   * never cross into JavaScript, so this holds at millions of rows. One transaction: a reader never
   * sees them half rebuilt, a failure leaves the last ones whole, and the ~25 statements commit once
   * instead of each on its own (~30 ms of CPU less at the end of every ingest).
   */
  async refreshStatistics(table: string, schema: RecordSchema): Promise<ColumnStatistics[]> {
    let statistics: ColumnStatistics[] = [];
    await this.exclusive((connection) => transaction(connection, async () => {
      statistics = await writeStatistics(connection, table, schema);
      for (const entity of schema.entities ?? []) {
        const child = childTableName(table, entity.name);
        await writeStatistics(connection, child, childRecordSchema(entity));
        await declareChildLink(connection, table, child);
      }
    }));
    return statistics;
  }

  /**
   * The extraction run's port for one table `srag ingest` fills. Saves that arrive while a write
   * runs share the next transaction (group commit); each caller still hears back only after its
   * own record is committed, so "done" stays durable.
   */
  extractionStore(table: string, schema: RecordSchema): IngestExtractionStore {
    const target = appendingRecordTarget(table, schema);
    type Write = { record: StoredRecord } | { entry: LogWrite } | { cache: CacheWrite } | { move: { from: string; to: string } };
    let pending: Array<{ write: Write; resolve: () => void; reject: (error: unknown) => void }> = [];
    // The documents the log did not know when the run read it (`logEntries`), none saved or moved
    // to since: no row, item or evidence of theirs to replace, so their first save only inserts.
    const withoutRows = new Set<string>();
    const flush = async (connection: DuckDBConnection) => {
      const batch = pending;
      pending = [];
      const replies = batch.flatMap(({ write }) => ('cache' in write ? [write] : []));
      const records = batch.flatMap(({ write }) => ('record' in write ? [write.record] : []));
      const entries = batch.flatMap(({ write }) => ('entry' in write ? [write.entry] : []));
      const moves = batch.flatMap(({ write }) => ('move' in write ? [write.move] : []));
      const write = (fresh: ReadonlySet<string>) => transaction(connection, async () => {
        // Moves first: a record saved for a moved document in the same transaction lands on the moved row.
        if (moves.length) await moveSources(connection, target, moves);
        if (replies.length) await writeCacheEntries(connection, replies.map(({ cache }) => cache), { appender: true });
        if (records.length) await writeRecords(connection, target, records, fresh);
        if (entries.length) await writeLogEntries(connection, table, entries);
      });
      try {
        // A commit that may checkpoint starts from a trimmed buffer pool: the checkpoint's memory comes on top of it.
        if (!this.path.startsWith(':memory:') && (statSync(`${this.path}.wal`, { throwIfNoEntry: false })?.size ?? 0) >= checkpointSoonBytes) {
          await this.trimBufferCache(connection, { bytes: checkpointBufferCacheBytes, handBack: true }).catch(() => undefined);
        }
        const fresh = new Set(records.flatMap((record) => (withoutRows.delete(record.source) ? [record.source] : [])));
        try {
          await write(fresh);
        } catch (error) {
          if (fresh.size === 0) throw error;
          // A row the log did not know (written meanwhile by another writer of the table, or its log
          // entry deleted by hand): the table's key refused the insert. Replaced, as any document's.
          await write(new Set());
        }
        for (const { cache } of replies) this.arrivingReplies.delete(cache.key);
        // None waiting: every reply the file holds is in srag_cache.
        if (replies.length && this.arrivingReplies.size === 0) this.replyJournal?.clear();
        // The blocks this commit and its checkpoints wrote are not read again by the run (a file in
        // memory has nothing to drop: its blocks would go to a temporary directory). Before the saves
        // hear back: a caller may close the store then, and a statement must not be running.
        if (!this.path.startsWith(':memory:')) await this.trimBufferCache(connection).catch(() => undefined);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        const failure = storeFailed(error, this.path);
        for (const entry of batch) entry.reject(failure);
      }
    };
    // Group commit: writes that arrive while one runs share the next transaction, and one starts no
    // sooner than `groupCommitGapMilliseconds` after the last one started, waiting for more. A lone
    // save someone waits for (a document the run awaits before its next one, a move) commits at once.
    let lastCommitStarted = -Infinity;
    const commitWhenDue = async (connection: DuckDBConnection) => {
      const lone = pending.length === 1 && !('cache' in pending[0]!.write);
      const wait = lone ? 0 : lastCommitStarted + groupCommitGapMilliseconds - performance.now();
      if (wait > 0) {
        // The connection is free meanwhile; writes that arrive join this commit.
        setTimeout(() => void this.exclusive(commit), wait);
        return;
      }
      await commit(connection);
    };
    const commit = (connection: DuckDBConnection) => {
      lastCommitStarted = performance.now();
      return flush(connection);
    };
    const save = (write: Write) => new Promise<void>((resolve, reject) => {
      pending.push({ write, resolve, reject });
      if (pending.length === 1) void this.exclusive(commitWhenDue);
    });
    const cache = this.responseCache('extraction');
    return {
      logEntries: (sources) => this.exclusive(async (connection) => {
        // The run's sources travel as one JSON text, unnested by DuckDB: one statement however many.
        // A semi-join over the text cast to a list: 3.7 s for a million sources, where IN over
        // from_json's took 8.2 s.
        const rows = (await (sources
          ? connection.runAndReadAll(
            `SELECT source, content_hash, status, error, attribute_hashes FROM srag_ingestion_log
             SEMI JOIN (SELECT unnest(CAST($2 AS JSON)::VARCHAR[]) AS given) ON source = given
             WHERE table_name = $1`, [table, JSON.stringify(sources)])
          : connection.runAndReadAll('SELECT source, content_hash, status, error, attribute_hashes FROM srag_ingestion_log WHERE table_name = $1', [table]))).getRowsJS();
        const log = new Map<string, IngestionLogEntry>(rows.map((row) => [String(row[0]), {
          source: String(row[0]), contentHash: String(row[1]), status: row[2] as IngestionLogEntry['status'], error: row[3] === null ? null : String(row[3]),
          // A `done` entry lists the attributes its record holds; `registerTable` filled those of earlier versions.
          ...(row[2] === 'done' ? { attributeHashes: row[4] === null ? [] : (JSON.parse(String(row[4])) as string[]) } : {}),
        }]));
        for (const source of sources ?? []) if (!log.has(source)) withoutRows.add(source);
        return log;
      }),
      saveRecord: (record) => save({ record }),
      saveLogEntry: (entry) => save({ entry }),
      moveRecord: (from, to) => {
        withoutRows.delete(to);
        return save({ move: { from, to } });
      },
      responseCache: {
        get: cache.get,
        findForAnyEndpoint: cache.findForAnyEndpoint,
        // On disk the moment it is read (see `ReplyJournal`), so a kill -9 re-pays only the calls
        // still in flight. The group commit then moves it to srag_cache; a failure there fails the
        // records saved with it. A database in memory outlives no kill: its replies wait for the commit.
        set: async (key, response) => {
          if (this.readOnly) return;
          const cache = { key, response, purpose: 'extraction' };
          if (this.path.startsWith(':memory:')) return save({ cache });
          try {
            this.replyJournal ??= ReplyJournal.open(this.path);
            this.replyJournal.append({ key, response });
          } catch (error) {
            throw storeFailed(error, this.path);
          }
          this.arrivingReplies.set(key, response);
          save({ cache }).catch(() => undefined);
        },
      },
      refreshStatistics: async () => {
        await this.refreshStatistics(table, schema);
      },
    };
  }

  /**
   * The synthesized extractors of one table `srag ingest --synthesize` fills (`srag_extractors`),
   * accepted and rejected, so a later run reuses them.
   */
  extractorStore(table: string): ExtractorStore {
    return {
      load: () => this.exclusive(async (connection) => {
        const rows = (await connection.runAndReadAll(
          'SELECT attribute, source, status, reason, checked_documents, quote_boundaries, definition FROM srag_extractors WHERE table_name = $1 ORDER BY attribute', [table])).getRowsJS();
        return rows.map((row): SynthesizedExtractor => ({
          attribute: String(row[0]), definition: String(row[6]), source: String(row[1]), status: row[2] === 'accepted' ? 'accepted' : 'rejected',
          reason: row[3] === null ? null : String(row[3]), checkedDocuments: Number(row[4]), quoteBoundaries: JSON.parse(String(row[5])) as string[],
        }));
      }),
      save: (extractors) => this.exclusive(async (connection) => {
        try {
          await transaction(connection, async () => {
            await connection.run('DELETE FROM srag_extractors WHERE table_name = $1', [table]);
            for (const extractor of extractors) {
              await connection.run(
                'INSERT INTO srag_extractors (table_name, attribute, definition, source, status, reason, checked_documents, quote_boundaries) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
                [table, extractor.attribute, extractor.definition, extractor.source, extractor.status, extractor.reason, extractor.checkedDocuments, JSON.stringify(extractor.quoteBoundaries)],
              );
            }
          });
        } catch (error) {
          throw storeFailed(error, this.path);
        }
      }),
    };
  }

  /**
   * The response cache, shared by every table in this file. `purpose` tags what is written
   * ('extraction' replies are not kept at hand by the SQL functions; see `readBridgeStart`).
   * A read-only file is read but not written.
   */
  responseCache(purpose: 'extraction' | null = null): ResponseCache {
    const read = (sql: string, key: string) => this.exclusive(async (connection) => {
      const row = (await connection.runAndReadAll(sql, [key])).getRowsJS()[0];
      if (!row) return undefined;
      const cached: CachedResponse = { text: keptReplyText(row[0], row[1]), model: String(row[2]), usage: { promptTokens: Number(row[3]), completionTokens: Number(row[4]) } };
      return cached;
    });
    return {
      get: (key) => this.lookUpReply(key),
      // A session with no endpoint configured: any endpoint's reply, or one an older srag kept under the request key.
      findForAnyEndpoint: (requestKey) => read(this.knowsEndpoints
        ? `SELECT ${this.replyTextColumns}, model, prompt_tokens, completion_tokens FROM srag_cache WHERE request_key = $1 OR (endpoint IS NULL AND key = $1) LIMIT 1`
        : `SELECT ${this.replyTextColumns}, model, prompt_tokens, completion_tokens FROM srag_cache WHERE key = $1`, requestKey),
      set: (key, response) => (this.readOnly ? Promise.resolve() : this.keepReply({ key, response, purpose })),
    };
  }

  /** Writes the replies kept meanwhile (see `keepReply`) in one statement and one commit. */
  private async writeReplies(connection: DuckDBConnection, replies: CacheWrite[]): Promise<void[]> {
    try {
      await writeCacheEntries(connection, replies);
    } catch (error) {
      throw storeFailed(error, this.path);
    }
    return replies.map(() => undefined);
  }

  /**
   * The reply kept under `key`: one arriving (journaled, not yet in srag_cache), or one of
   * srag_cache, looked up with the others asked for meanwhile in one query (`lookUpReplies`): a
   * query per lookup was a statement per model call, and the lookups queued before every write.
   */
  private lookUpReply(key: string): Promise<CachedResponse | undefined> {
    const arriving = this.arrivingReplies.get(key);
    if (arriving) return Promise.resolve(arriving);
    return this.gatheredLookup(key);
  }

  /** Answers every waiting lookup with one query. */
  private async lookUpReplies(connection: DuckDBConnection, asked: string[]): Promise<Array<CachedResponse | undefined>> {
    // Which keys srag_cache holds, first: that reads only its key column. Asking for the replies
    // with the same IN list read every reply of the table, found or not (DuckDB filters after the
    // scan): in a new file's keyless cache of 11,112 replies (100,000 documents) 94 ms and +200 MB
    // a lookup of 64 keys none of which is there, against 13 ms and +2 MB (bench/cache-lookup.ts).
    // A run's first pass finds none, so its replies are read only when some are there.
    const keys = [...new Set(asked)];
    const held = (await connection.runAndReadAll(`SELECT DISTINCT key FROM srag_cache WHERE key IN (${textLiterals(keys)})`)).getRowsJS().map(([key]) => String(key));
    const rows = held.length === 0 ? [] : (await connection.runAndReadAll(
      `SELECT key, ${this.replyTextColumns}, model, prompt_tokens, completion_tokens FROM srag_cache WHERE key IN (${textLiterals(held)})`)).getRowsJS();
    const found = new Map(rows.map((row): [string, CachedResponse] => [String(row[0]), {
      text: keptReplyText(row[1], row[2]), model: String(row[3]), usage: { promptTokens: Number(row[4]), completionTokens: Number(row[5]) },
    }]));
    return asked.map((key) => this.arrivingReplies.get(key) ?? found.get(key));
  }

  /**
   * How many replies the response cache holds per endpoint, most first; `endpoint` null for the
   * replies an older srag kept without saying which endpoint gave them.
   */
  cachedRepliesByEndpoint(): Promise<Array<{ endpoint: string | null; replies: number }>> {
    return this.exclusive(async (connection) => (await connection.runAndReadAll(this.knowsEndpoints
      ? 'SELECT endpoint, count(*) FROM srag_cache GROUP BY endpoint ORDER BY count(*) DESC, endpoint NULLS LAST'
      : 'SELECT NULL, count(*) FROM srag_cache HAVING count(*) > 0')).getRowsJS()
      .map((row) => ({ endpoint: row[0] === null ? null : String(row[0]), replies: Number(row[1]) })));
  }

  /**
   * What `endpoint`'s models were found to refuse (see openai-wire's `ParameterAdaptations`), by
   * model: parameter names and an output mode, never a secret.
   */
  parameterAdaptations(endpoint: string): Promise<Record<string, ParameterAdaptation>> {
    if (!this.knowsEndpoints) return Promise.resolve({});
    return this.exclusive(async (connection) => Object.fromEntries((await connection.runAndReadAll(
      'SELECT model, adaptation FROM srag_endpoint_adaptations WHERE endpoint = $1', [endpoint])).getRowsJS()
      .map((row) => [String(row[0]), JSON.parse(String(row[1])) as ParameterAdaptation])));
  }

  /** Keeps what `endpoint` refuses for `model`, replacing what was kept; a read-only file keeps nothing. */
  async saveParameterAdaptation(endpoint: string, model: string, adaptation: ParameterAdaptation): Promise<void> {
    if (this.readOnly) return;
    await this.exclusive(async (connection) => {
      try {
        await connection.run(
          `INSERT INTO srag_endpoint_adaptations (endpoint, model, adaptation, updated_at) VALUES ($1, $2, $3, current_timestamp)
           ON CONFLICT (endpoint, model) DO UPDATE SET adaptation = excluded.adaptation, updated_at = excluded.updated_at`, [endpoint, model, JSON.stringify(adaptation)]);
      } catch (error) {
        throw storeFailed(error, this.path);
      }
    });
  }

  /**
   * The SQL functions' journal file (see `StoreJournal`): beside the database, or for a database in
   * memory in a directory of its own, removed when the store closes.
   */
  get journalFile(): string {
    if (!this.path.startsWith(':memory:')) return StoreJournal.fileOf(this.path);
    this.memoryJournalDirectory ??= mkdtempSync(join(tmpdir(), 'srag-journal-'));
    return join(this.memoryJournalDirectory, 'journal');
  }

  /** The last sequence the journal used (applied, or still in `srag_journal`): the next entry is numbered after it. */
  lastJournalSequence(): Promise<number> {
    return this.exclusive(async (connection) => Number((await connection.runAndReadAll(
      'SELECT greatest(coalesce((SELECT max(through) FROM srag_journal_applied), 0), coalesce((SELECT max(sequence) FROM srag_journal), 0))',
    )).getRowsJS()[0]![0]));
  }

  /**
   * Moves what the SQL functions journaled into the ordinary tables, in order, a transaction per
   * slice: first what an older srag left in `srag_journal` (each slice deleted in its transaction),
   * then the journal file, each slice recording in its transaction the last sequence it applied
   * (`srag_journal_applied`) — applied once, whatever stops it. The file, wholly applied, is emptied.
   * Run after a statement, never during one: what it commits stays in memory until a checkpoint,
   * which the statement's open transaction holds off.
   */
  applyJournal(): Promise<void> {
    return this.exclusive(async (connection) => {
      // Tables `srag ingest` made that the journal wrote to (a back-fill of `srag_ask(…, extend := true)`): their statistics follow.
      const ingested = new Set<string>();
      while ((await this.applyJournalTableSlice(connection, ingested)) === 'applied');
      await this.applyJournalFile(connection, ingested);
      // No CHECKPOINT after a grown table's ALTER, unlike `registerTable`: a record table has no DEFAULT, the case DuckDB cannot replay.
      for (const table of ingested) {
        const row = (await connection.runAndReadAll('SELECT schema_json FROM srag_tables WHERE table_name = $1', [table])).getRowsJS()[0];
        if (!row) continue;
        const schema = parseRecordSchema(JSON.parse(String(row[0])), `table "${table}"`);
        await transaction(connection, async () => {
          await writeStatistics(connection, table, schema);
        });
      }
    });
  }

  /** Applies the oldest slice of `srag_journal` (an older srag's journal) in one transaction, deleting it in the same. */
  private async applyJournalTableSlice(connection: DuckDBConnection, ingested: Set<string>): Promise<'applied' | 'empty'> {
    const rows = (await connection.runAndReadAll(`SELECT sequence, entry FROM srag_journal ORDER BY sequence LIMIT ${journalEntriesPerTransaction}`)).getRowsJS();
    if (rows.length === 0) return 'empty';
    const entries = rows.map((row) => JSON.parse(String(row[1])) as JournalEntry);
    const last = rows.at(-1)![0] as bigint;
    await transaction(connection, async () => {
      await this.applyEntries(connection, entries, ingested);
      await connection.run('DELETE FROM srag_journal WHERE sequence <= $1', [last]);
    });
    return 'applied';
  }

  /** Applies the journal file after the last sequence applied, a slice per transaction, then empties it (see `applyJournal`). */
  private async applyJournalFile(connection: DuckDBConnection, ingested: Set<string>): Promise<void> {
    const file = this.journalFile;
    const applied = Number((await connection.runAndReadAll('SELECT coalesce(max(through), 0) FROM srag_journal_applied')).getRowsJS()[0]![0]);
    const slices = readJournalSlices(file, applied, journalEntriesPerTransaction);
    // Lowered at the first slice (a file in memory keeps its tables in the buffer pool: not there),
    // set back after the last; 'given up' once a slice needed more than it.
    let limit: { restore: () => Promise<void> } | 'given up' | undefined;
    // Drops blocks down to its own bytes, setting back the limit in force at its first call: the one lowered for the apply.
    let trimBufferCache = bufferCacheTrimmer(ingestBufferCacheBytes);
    try {
      for (let next = slices.next(); ; next = slices.next()) {
        if (next.done) {
          emptyJournal(file, next.value.bytes);
          return;
        }
        if (!limit && !this.path.startsWith(':memory:')) {
          this.memoryLimit ??= String((await connection.runAndReadAll("SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'")).getRowsJS()[0]![0]);
          limit = await lowerMemoryLimit(connection, journalApplyMemoryBytes, this.memoryLimit);
        }
        try {
          await this.applyJournalSlice(connection, next.value, ingested);
        } catch (error) {
          // A slice that needs more than the lowered limit (a large table's column cleared for a
          // grown schema, say) must not keep the file from opening: the rest is applied under DuckDB's own.
          if (!limit || limit === 'given up' || !/Out of Memory Error/i.test((error as Error).message)) throw error;
          await limit.restore();
          limit = 'given up';
          trimBufferCache = bufferCacheTrimmer(ingestBufferCacheBytes);
          await this.applyJournalSlice(connection, next.value, ingested);
        }
        // The apply only appends: the blocks each slice's commit and checkpoints wrote are not read
        // again, and DuckDB kept them all (to 80% of the machine's memory) — a million pages' journal
        // passed 3.3 GB. A file in memory has nothing to drop.
        if (!this.path.startsWith(':memory:')) await trimBufferCache(connection).catch(() => undefined);
      }
    } finally {
      if (limit && limit !== 'given up') await limit.restore();
    }
  }

  /** Applies one slice of the journal file in a transaction that records the last sequence it applied. */
  private async applyJournalSlice(connection: DuckDBConnection, { entries, last }: JournalSlice, ingested: Set<string>): Promise<void> {
    const apply = (trustFresh: boolean) => transaction(connection, async () => {
      await this.applyEntries(connection, entries, ingested, trustFresh);
      await connection.run('DELETE FROM srag_journal_applied');
      await connection.run(`INSERT INTO srag_journal_applied VALUES (${last})`);
    });
    try {
      await apply(true);
    } catch (error) {
      // Only a record journaled as fresh can make the old way differ: any other failure would fail again.
      if (!entries.some((entry) => entry.kind === 'record' && entry.fresh)) throw error;
      // A record journaled as fresh had a row after all (the table's key refused it): replaced, as any other.
      await apply(false);
    }
  }

  /** What the SQL functions' bridge is handed when the database opens (see `BridgeStart`). */
  readBridgeStart(): Promise<BridgeStart> {
    return this.exclusive(async (connection) => {
      const schemaKeys = (await hasTable(connection, 'srag_extract_schemas'))
        ? (await connection.runAndReadAll('SELECT schema_key FROM srag_extract_schemas')).getRowsJS().map((row) => String(row[0]))
        : [];
      const columns = this.knowsEndpoints ? 'endpoint, coalesce(request_key, key)' : 'NULL, key';
      const cache = (await connection.runAndReadAll(`SELECT key, model, ${this.replyTextColumns}, prompt_tokens, completion_tokens, ${columns} FROM srag_cache WHERE purpose IS DISTINCT FROM 'extraction'`)).getRowsJS()
        .map((row): [string, CachedResponse] => [String(row[0]), {
          model: String(row[1]), text: keptReplyText(row[2], row[3]), usage: { promptTokens: Number(row[4]), completionTokens: Number(row[5]) },
          ...(row[6] === null ? {} : { endpoint: String(row[6]) }), requestKey: String(row[7]),
        }]);
      return { schemaKeys, cache };
    });
  }

  /** Writes `entries` through `connection`. */
  private async applyEntries(connection: DuckDBConnection, entries: JournalEntry[], ingested: Set<string>, trustFresh = false): Promise<void> {
    const targets = new Map<string, RecordTarget>();
    const target = async (logName: string): Promise<RecordTarget> => {
      let found = targets.get(logName);
      if (!found) {
        const row = (await connection.runAndReadAll('SELECT schema_json FROM srag_extract_schemas WHERE schema_key = $1', [logName])).getRowsJS()[0];
        if (row) {
          const schema = parseRecordSchema(JSON.parse(String(row[0])), `schema ${logName}`);
          found = { quotedTable: (await extractRecordTable(connection, logName)).quotedTable, logName, schema };
        } else {
          // A table `srag ingest` made, back-filled by `srag_ask(…, extend := true)`.
          const table = (await connection.runAndReadAll('SELECT schema_json FROM srag_tables WHERE table_name = $1', [logName])).getRowsJS()[0];
          if (!table) throw new SragError({ code: 'STORE_FAILED', message: `the journal names a schema the database does not know (${logName})` });
          found = { quotedTable: quoteIdentifier(logName), logName, schema: parseRecordSchema(JSON.parse(String(table[0])), `table "${logName}"`) };
          ingested.add(logName);
        }
        targets.set(logName, found);
      }
      return found;
    };
    // Replies stand apart from everything else (a key keeps the reply it has, whatever is written
    // around it): they go in one statement, so that a scan's journal — reply, record, reply,
    // record, … — leaves its records consecutive, and they too are written together. A record per
    // statement made the apply of a 512-document scan take longer than the scan's model calls.
    const replies = entries.filter((entry): entry is Extract<JournalEntry, { kind: 'cache' }> => entry.kind === 'cache');
    if (replies.length > 0) {
      await writeCacheEntries(connection, replies.map((entry): CacheWrite => ({ key: entry.key, response: entry.response, purpose: entry.purpose })));
      entries = entries.filter((entry) => entry.kind !== 'cache');
    }
    // Consecutive entries of one kind and table are written together; order between runs is kept.
    for (let start = 0; start < entries.length;) {
      const first = entries[start]!;
      let end = start + 1;
      const sameRun = (entry: JournalEntry) => entry.kind === first.kind && (!('logName' in entry) || !('logName' in first) || entry.logName === first.logName);
      while (end < entries.length && sameRun(entries[end]!)) end += 1;
      const run = entries.slice(start, end);
      start = end;
      switch (first.kind) {
        case 'schema':
          for (const entry of run as Array<Extract<JournalEntry, { kind: 'schema' }>>) {
            await connection.run('INSERT OR IGNORE INTO srag_extract_schemas (schema_key, title, schema_json) VALUES ($1, $2, $3)', [entry.schemaKey, entry.title, entry.schemaJson]);
            const schema = parseRecordSchema(JSON.parse(entry.schemaJson), `schema ${entry.schemaKey}`);
            const { quotedTable } = await extractRecordTable(connection, entry.schemaKey);
            await connection.run(createRecordTableSql(quotedTable, schema, true));
            // Known from here on: the records after it go to this table.
            targets.set(entry.schemaKey, { quotedTable, logName: entry.schemaKey, schema });
          }
          break;
        case 'grow-table':
          for (const entry of run as Array<Extract<JournalEntry, { kind: 'grow-table' }>>) {
            const row = (await connection.runAndReadAll('SELECT schema_json FROM srag_tables WHERE table_name = $1', [entry.table])).getRowsJS()[0];
            if (!row) throw new SragError({ code: 'STORE_FAILED', message: `the journal grows a table the database does not know (${entry.table})` });
            const stored = parseRecordSchema(JSON.parse(String(row[0])), `table "${entry.table}"`);
            // Only attributes the table lacks are added: a grown schema journaled twice (two statements before it applied) adds them once.
            const grown = parseRecordSchema(JSON.parse(entry.schemaJson), `table "${entry.table}"`);
            const added = grown.attributes.filter((attribute) => !stored.attributes.some((old) => old.name === attribute.name));
            if (added.length) await changeTableSchema(connection, entry.table, stored, String(row[0]), { ...stored, attributes: [...stored.attributes, ...added] }, this.path);
            targets.delete(entry.table);
            ingested.add(entry.table);
          }
          break;
        case 'record': {
          const records = run as Array<Extract<JournalEntry, { kind: 'record' }>>;
          // Fresh documents are only inserted: a DELETE … IN per slice scanned the whole table and
          // its evidence, ever longer and holding ever more blocks (a million pages: ~14 M evidence rows).
          // One saved twice in the slice counts as its first save says (the two become one row).
          const seen = new Set<string>();
          const fresh = new Set<string>();
          if (trustFresh) {
            for (const entry of records) {
              if (!seen.has(entry.record.source) && entry.fresh) fresh.add(entry.record.source);
              seen.add(entry.record.source);
            }
          }
          await writeRecords(connection, await target(first.logName), records.map((entry) => entry.record), fresh);
          break;
        }
        case 'log':
          await writeLogEntries(connection, first.logName, (run as Array<Extract<JournalEntry, { kind: 'log' }>>).map((entry) => entry.entry));
          break;
        case 'move':
          await moveSources(connection, await target(first.logName), (run as Array<Extract<JournalEntry, { kind: 'move' }>>).map(({ from, to }) => ({ from, to })));
          break;
        case 'cache':
          // Written above, before the loop.
          break;
      }
    }
  }

  private refuseWrites(what: string): void {
    if (this.readOnly) throw new SragError({ code: 'INPUT_INVALID', message: `${this.path} can only be read (a read-only file), so srag cannot ${what}`, hint: 'pass a --db you may write to' });
  }
}

/**
 * Computes the table's statistics in DuckDB and stores them with it, then rebuilds its catalog
 * profile (`refreshTableProfile`), which follows the same rows (see `SragStore.refreshStatistics`).
 */
async function writeStatistics(connection: DuckDBConnection, table: string, schema: RecordSchema): Promise<ColumnStatistics[]> {
  const statistics = await queryColumnStatistics(connection, table, schema);
  await connection.run('UPDATE srag_tables SET statistics_json = $1, updated_at = current_timestamp WHERE table_name = $2', [JSON.stringify(statistics), table]);
  await refreshTableProfile(connection, table);
  return statistics;
}

/**
 * A child entity's table: one column per attribute, then the document's identity (the parent
 * row's `_source`, the join key), the item's place in the document's list (from 1) and the
 * content hash of the document it was read from (so the hybrid path can read it, as for a row).
 */
function createChildTableSql(quotedTable: string, schema: RecordSchema): string {
  const columns = schema.attributes.map((attribute) => `${quoteIdentifier(attribute.name)} ${sqlTypeForKind[attribute.kind]}`);
  return `CREATE TABLE ${quotedTable} (${columns.join(', ')}, "_source" VARCHAR NOT NULL, "_position" INTEGER NOT NULL, "_content_hash" VARCHAR NOT NULL, PRIMARY KEY ("_source", "_position"))`;
}

/** A record table: one column per attribute, then the document's identity and content hash. */
function createRecordTableSql(quotedTable: string, schema: RecordSchema, ifNotExists = false): string {
  const columns = schema.attributes.map((attribute) => `${quoteIdentifier(attribute.name)} ${sqlTypeForKind[attribute.kind]}`);
  return `CREATE TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${quotedTable} (${columns.join(', ')}, "_source" VARCHAR PRIMARY KEY, "_content_hash" VARCHAR NOT NULL)`;
}

/**
 * Gives a table `srag ingest` made a new schema (see `SragStore.registerTable`), inside the caller's
 * transaction: new attributes become NULL columns, changed ones are cleared, the stored schema is
 * replaced. Refuses a schema that shares no attribute with the table's.
 */
async function changeTableSchema(connection: DuckDBConnection, table: string, stored: RecordSchema, storedJson: string, schema: RecordSchema, path: string): Promise<SchemaChange> {
  const changedEntities = changedEntityNames(stored, schema);
  if (changedEntities.length) {
    // Incremental extraction tracks a record's attributes only: items of the old definition would stay beside the new one.
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `table "${table}" in ${path} was ingested with child entities the new schema changes (${changedEntities.join(', ')}); a table's entities cannot change`,
      hint: 'extract every document with the new schema into a table of another name, or drop this one first',
      fix: { kind: 'rename-table', table, drop: table },
    });
  }
  const change = compareSchemas(stored, schema);
  if (change.kept.length === stored.attributes.length) {
    // Not the same kind of record at all: growing the table would leave every old row NULL in every new column.
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `table "${table}" in ${path} was ingested with a different schema (none of its attributes is in the new one)`,
      hint: 'ingest into a table of another name, or drop this one first',
      fix: { kind: 'rename-table', table, drop: table },
    });
  }
  const schemaJson = JSON.stringify(recordSchemaToJsonSchema(change.schema));
  // Log entries of an earlier version hold the whole record of the table's schema as it was.
  await connection.run("UPDATE srag_ingestion_log SET attribute_hashes = $1 WHERE table_name = $2 AND status = 'done' AND attribute_hashes IS NULL",
    [JSON.stringify(stored.attributes.map((attribute) => attributeDefinitionHash(attribute, hashText))), table]);
  if (change.added.length === 0 && change.changed.length === 0 && storedJson === schemaJson) return change;
  const quotedTable = quoteIdentifier(table);
  for (const attribute of change.added) await connection.run(`ALTER TABLE ${quotedTable} ADD COLUMN ${quoteIdentifier(attribute.name)} ${sqlTypeForKind[attribute.kind]}`);
  for (const attribute of change.changed) {
    const column = quoteIdentifier(attribute.name);
    await connection.run(`UPDATE ${quotedTable} SET ${column} = NULL`);
    await connection.run('DELETE FROM srag_evidence WHERE table_name = $1 AND attribute = $2', [table, attribute.name]);
    const before = stored.attributes.find((old) => old.name === attribute.name)!;
    if (sqlTypeForKind[before.kind] !== sqlTypeForKind[attribute.kind]) await connection.run(`ALTER TABLE ${quotedTable} ALTER ${column} SET DATA TYPE ${sqlTypeForKind[attribute.kind]}`);
  }
  await connection.run('UPDATE srag_tables SET title = $1, schema_json = $2, updated_at = current_timestamp WHERE table_name = $3', [change.schema.title, schemaJson, table]);
  return change;
}

/** The child entities added, removed or defined otherwise in `schema` than in `stored`. */
function changedEntityNames(stored: RecordSchema, schema: RecordSchema): string[] {
  const before = new Map((stored.entities ?? []).map((entity) => [entity.name, JSON.stringify(entity)]));
  const after = new Map((schema.entities ?? []).map((entity) => [entity.name, JSON.stringify(entity)]));
  return [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name));
}

async function createStoreTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(storeTablesSql);
  // A file made by this version has every column: a query naming them all binds (and reads no row).
  // Asked first: `duckdb_columns()`'s first call in an instance cost 25–45 ms of CPU, at every open.
  if (await namesEveryAddedColumn(connection)) return;
  // One query for all of them.
  const present = new Set((await connection.runAndReadAll(
    "SELECT table_name || '.' || column_name FROM duckdb_columns() WHERE schema_name = 'main' AND table_name IN (SELECT unnest($1::VARCHAR[]))",
    [`[${[...new Set(addedColumns.map(({ table }) => table))].join(', ')}]`],
  )).getRowsJS().map(([name]) => String(name)));
  for (const added of addedColumns) {
    if (present.has(`${added.table}.${added.column}`)) continue;
    await connection.run(`ALTER TABLE ${added.table} ADD COLUMN ${added.column} ${added.type}`);
    if ('then' in added) await connection.run(added.then);
    await connection.run('CHECKPOINT');
  }
}

/** Whether the store's tables have every column of `addedColumns` (false when a query naming them does not bind). */
async function namesEveryAddedColumn(connection: DuckDBConnection): Promise<boolean> {
  const byTable = new Map<string, string[]>();
  for (const { table, column } of addedColumns) byTable.set(table, [...byTable.get(table) ?? [], column]);
  try {
    await connection.run(`SELECT 1 FROM ${[...byTable].map(([table, columns]) => `(SELECT ${columns.join(', ')} FROM ${table} LIMIT 0)`).join(', ')}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lowers DuckDB's memory limit to `bytes` until `restore()` sets back `limit` (the one it had, as
 * DuckDB showed it: see `memoryLimit`). When DuckDB holds more than `bytes` and cannot drop it,
 * the limit is left as it was.
 */
async function lowerMemoryLimit(connection: DuckDBConnection, bytes: number, limit: string): Promise<{ restore: () => Promise<void> }> {
  try {
    await connection.run(memoryLimitSql(bytes));
  } catch {
    return { restore: async () => undefined };
  }
  return { restore: () => connection.run(memoryLimitSql(limit)).then(() => undefined) };
}

export async function transaction(connection: DuckDBConnection, statements: () => Promise<void>): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    await statements();
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function hasTable(connection: DuckDBConnection, table: string): Promise<boolean> {
  return (await connection.runAndReadAll("SELECT 1 FROM duckdb_tables() WHERE table_name = $1 AND schema_name = 'main'", [table])).getRowsJS().length > 0;
}

/** A write the database refused, as the run reports it: what failed, and that nothing is lost by fixing it and running again. */
function storeFailed(error: unknown, path: string): SragError {
  if (SragError.isInstance(error)) return error;
  const message = firstLine((error as Error).message);
  return new SragError({
    code: 'STORE_FAILED',
    message: `cannot write to the database ${path}: ${message}`,
    hint: 'fix the cause (disk space, permissions) and run the same command again: what was saved stays, the rest resumes',
    cause: error,
  });
}
