/**
 * The store's share of `srag ingest`, alone: the writes a real ingest of generated hotel pages made
 * (its replies, records with their evidence, and log entries, read back from its database) replayed
 * in this process through `SragStore` as an ingest makes them — a group commit per wave of replies
 * and records, the statistics and profile refresh, a checkpoint and the close — with the CPU of each
 * phase (user + system, every thread: nothing else runs meanwhile).
 *
 *   node --import tsx bench/ingest-store-writes.ts [--from DB] [--documents 3000] [--waves 9] [--runs 3] [--threads N] [--statements]
 *
 * Without --from, a database is made first: `srag ingest` of --documents generated pages against the
 * test stand-in, in a process of its own. --threads runs `SET threads = N` after the open, as the
 * CLI's ingest does (see `ingestThreadsSql` in node/cli/ingest-command.ts). Nine waves are what a
 * 3,000-page ingest committed when this was written; on 29 November (round 6) one made 4 group
 * commits (`--waves 4`): a wave's size decides whether a table's rows go to the write-ahead log or,
 * a row group or more at once, straight to the file (compressed at the commit). --statements prints
 * the CPU of each statement, appender and instance close, per run (the process's, every thread:
 * a statement's figure includes the JavaScript other saves ran while it was pending, so a short
 * statement can read several times what it costs alone). CPU varies with the machine's load:
 * compare builds interleaved.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import type * as NodeApi from '@duckdb/node-api';
import { DuckDBInstance } from '../node/duckdb/duckdb-node-api.ts';
import { parseRecordSchema, type CachedResponse, type StoredRecord } from '../core/index.ts';
import { SragStore } from '../node/duckdb/store/srag-store.ts';
import { generateHotelCorpus } from './generate-hotel-corpus.ts';
import { runCliMeasured } from './run-cli-measured.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';

const { values: flags } = parseArgs({ options: {
  from: { type: 'string' }, documents: { type: 'string', default: '3000' }, waves: { type: 'string', default: '9' }, runs: { type: 'string', default: '3' }, threads: { type: 'string' },
  statements: { type: 'boolean', default: false },
} });
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const statementCpu = flags.statements ? timeStatements() : undefined;

/**
 * Times every statement, appender and instance close DuckDB runs from now on (CPU of the process,
 * by statement text up to its first 100 characters); a statement run inside another (runAndReadAll
 * runs one) counts once.
 */
function timeStatements(): Map<string, { calls: number; milliseconds: number }> {
  const spent = new Map<string, { calls: number; milliseconds: number }>();
  const add = (what: string, milliseconds: number) => {
    const entry = spent.get(what) ?? { calls: 0, milliseconds: 0 };
    entry.calls += 1;
    entry.milliseconds += milliseconds;
    spent.set(what, entry);
  };
  let depth = 0;
  // The classes srag's sources use (`require`d as node/duckdb/duckdb-node-api.ts does: the same module).
  const { DuckDBConnection } = createRequire(import.meta.url)('@duckdb/node-api') as typeof NodeApi;
  const connection = DuckDBConnection.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of ['run', 'runAndReadAll']) {
    const original = connection[method]!;
    connection[method] = async function (this: unknown, sql: unknown, ...rest: unknown[]) {
      if (depth > 0) return original.call(this, sql, ...rest);
      depth += 1;
      const start = cpu();
      try {
        return await original.call(this, sql, ...rest);
      } finally {
        depth -= 1;
        add(String(sql).replace(/\s+/g, ' ').trim().replace(/\$\d+(, \$\d+)+/g, '$…').replace(/'[^']*'(, '[^']*')+/g, "'…'").slice(0, 100), cpu() - start);
      }
    };
  }
  const createAppender = connection.createAppender!;
  connection.createAppender = async function (this: unknown, table: unknown, ...rest: unknown[]) {
    const start = cpu();
    const appender = await createAppender.call(this, table, ...rest) as { closeSync(): void };
    const close = appender.closeSync.bind(appender);
    // From its making to its close: the appends (JavaScript calling DuckDB per cell) and the flush.
    appender.closeSync = () => {
      close();
      add(`appender of ${String(table)}`, cpu() - start);
    };
    return appender;
  };
  const closeInstance = DuckDBInstance.prototype.closeSync;
  DuckDBInstance.prototype.closeSync = function (this: InstanceType<typeof DuckDBInstance>) {
    const start = cpu();
    closeInstance.call(this);
    add('instance close (its checkpoint)', cpu() - start);
  };
  return spent;
}
const directory = mkdtempSync(join(tmpdir(), 'srag-store-writes-'));

/** A database `srag ingest` filled with --documents generated pages. */
async function ingestedDatabase(): Promise<string> {
  const corpus = join(directory, 'corpus');
  generateHotelCorpus(corpus, Number(flags.documents));
  const standIn = await startLlmStandIn({ corpora: [corpus], recordBodies: false });
  const database = join(directory, 'ingested.duckdb');
  try {
    const run = await runCliMeasured(['ingest', join(corpus, 'docs', '*'), '--schema', join(corpus, 'schema.json'), '--db', database], directory,
      { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'bench-not-a-key', SRAG_CONCURRENCY: '64' });
    if (run.status !== 0) throw new Error(`srag ingest failed: ${run.stderr}`);
  } finally {
    await standIn.close();
  }
  return database;
}

/** The table's schema, replies in the order they were written, and records as the run saved them. */
async function readWrites(database: string) {
  const instance = await DuckDBInstance.create(database, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const read = async (sql: string) => (await connection.runAndReadAll(sql)).getRowsJS();
    const [first] = await read("SELECT table_name, schema_json FROM srag_tables WHERE schema_json NOT LIKE '%\"entities\"%' LIMIT 1");
    if (!first) throw new Error(`no srag table in ${database}`);
    const table = String(first[0]);
    const schemaJson = String(first[1]);
    const replies = (await read('SELECT key, model, response, prompt_tokens, completion_tokens, endpoint, request_key FROM srag_cache ORDER BY created_at, key'))
      .map((row): [string, CachedResponse] => [String(row[0]), {
        model: String(row[1]), text: String(row[2]), usage: { promptTokens: Number(row[3]), completionTokens: Number(row[4]) }, endpoint: String(row[5]), requestKey: String(row[6]),
      }]);
    const evidence = new Map<string, StoredRecord['evidence']>();
    for (const [source, attribute, value, raw, quote, status, reason] of await read(`SELECT source, attribute, value, raw, quote, status, reason FROM srag_evidence WHERE table_name = '${table}' ORDER BY source, rowid`)) {
      const list = evidence.get(String(source)) ?? [];
      list.push({ attribute: String(attribute), value: value as string | null, raw, quote: quote as string | null, status: status as StoredRecord['evidence'][number]['status'], reason: reason as string | null });
      evidence.set(String(source), list);
    }
    const records = (await connection.runAndReadAll(`SELECT t.*, l.attribute_hashes FROM "${table}" t JOIN srag_ingestion_log l ON l.table_name = '${table}' AND l.source = t._source ORDER BY t._source`)).getRowObjectsJS()
      .map((row): StoredRecord => {
        const values: StoredRecord['values'] = {};
        for (const [name, value] of Object.entries(row)) {
          if (name.startsWith('_') || name === 'attribute_hashes') continue;
          values[name] = typeof value === 'bigint' ? Number(value) : value instanceof Date ? value.toISOString().slice(0, 10) : (value as string | number | boolean | null);
        }
        return { source: String(row._source), contentHash: String(row._content_hash), values, evidence: evidence.get(String(row._source)) ?? [], issues: [], attributeHashes: JSON.parse(String(row.attribute_hashes)) as string[] };
      });
    return { table, schema: parseRecordSchema(JSON.parse(schemaJson)), replies, records };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const source = flags.from ?? await ingestedDatabase();
if (!existsSync(source)) throw new Error(`no database ${source}`);
const { table, schema, replies, records } = await readWrites(source);
const waves = Number(flags.waves);
// The reads of the source database are not the replay's.
statementCpu?.clear();
console.log(`${replies.length} replies, ${records.length} records (${records.reduce((sum, record) => sum + record.evidence.length, 0)} evidence rows) in ${waves} waves${flags.threads ? `, threads = ${flags.threads}` : ''}`);
for (let run = 0; run < Number(flags.runs); run++) {
  const database = join(directory, `replay-${run}.duckdb`);
  const start = cpu();
  const store = await SragStore.open(database);
  if (flags.threads) await store.exclusive((connection) => connection.run(`SET threads = ${Number(flags.threads)}`));
  await store.registerTable(table, schema);
  const extraction = store.extractionStore(table, schema);
  await extraction.logEntries(records.map((record) => record.source));
  const opened = cpu();
  const repliesPerWave = Math.ceil(replies.length / waves);
  const recordsPerReply = records.length / replies.length;
  for (let wave = 0; wave < waves; wave++) {
    const arriving = replies.slice(wave * repliesPerWave, (wave + 1) * repliesPerWave);
    // As a run does: each call's reply looked up first (a miss), then kept, then its documents' records saved.
    await Promise.all(arriving.map(([key]) => extraction.responseCache.get(key)));
    for (const [key, response] of arriving) await extraction.responseCache.set(key, response);
    const saved = records.slice(Math.round(wave * repliesPerWave * recordsPerReply), Math.round(Math.min(replies.length, (wave + 1) * repliesPerWave) * recordsPerReply));
    await Promise.all(saved.map((record) => extraction.saveRecord(record)));
  }
  const written = cpu();
  await extraction.refreshStatistics();
  const refreshed = cpu();
  await store.exclusive((connection) => connection.run('CHECKPOINT'));
  const checkpointed = cpu();
  store.close();
  const closed = cpu();
  rmSync(database, { force: true });
  console.log(`run ${run + 1}: open ${(opened - start).toFixed(0)} ms, writes ${(written - opened).toFixed(0)}, statistics ${(refreshed - written).toFixed(0)}, checkpoint ${(checkpointed - refreshed).toFixed(0)}, close ${(closed - checkpointed).toFixed(0)}; total ${(closed - start).toFixed(0)} ms of CPU`);
}
if (statementCpu) {
  const runs = Number(flags.runs);
  console.log('CPU per run, by statement (ms, calls):');
  for (const [what, { calls, milliseconds }] of [...statementCpu].sort((a, b) => b[1].milliseconds - a[1].milliseconds)) {
    if (milliseconds / runs >= 1) console.log(`${(milliseconds / runs).toFixed(1).padStart(8)} ${String(calls / runs).padStart(6)}  ${what}`);
  }
}
if (!flags.from) rmSync(directory, { recursive: true, force: true });
