/**
 * Moved documents at scale: `npm run bench:moved [-- --documents N]` (default 10,000).
 *
 * A table of N one-line text documents, as `srag ingest` keeps it (rows, evidence, log), is made
 * directly in DuckDB; then, through the ingest `srag ingest` runs (`ingestDocuments`, no model
 * configured, so any call would fail):
 * - a rerun over the same files in place (every document unchanged): the baseline;
 * - the same files after their directory was renamed: every record must follow its file
 *   (moved, no call, no second row), and the time is given as a ratio to the baseline;
 * - a run over N / 100 of the files after the rest were deleted: the cost of finding the gone ones
 *   (one `stat` each), and `--prune` removing their records.
 * Prints a table and writes JSON to bench/results/. Timings are measurements of this machine.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseRecordSchema } from '../core/index.ts';
import { documentAtPath } from '../node/runtime/document-at-path.ts';
import { ingestDocuments } from '../node/session/ingest-documents.ts';
import { openSession } from '../node/session/open-session.ts';

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '10000' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});
const count = Number(flags.documents);
const root = mkdtempSync(join(os.tmpdir(), 'srag-moved-bench-'));
const schema = parseRecordSchema({ title: 'Hotel', properties: { city: { type: 'string', description: 'The city.' } } });
const session = await openSession(join(root, 'moved.duckdb'), { environment: {} });
const seconds = (milliseconds: number) => Number((milliseconds / 1000).toFixed(2));
try {
  mkdirSync(join(root, 'before'));
  for (let index = 0; index < count; index += 1) writeFileSync(join(root, 'before', `${index}.txt`), `Hotel ${index} is in Paris.`);
  await session.store.registerTable('hotels', schema);
  const connection = session.store.connection;
  // What srag ingest would have saved for them: one row, one evidence row and one log entry each.
  await connection.run(`INSERT INTO hotels (city, _source, _content_hash)
    SELECT 'Paris', '${join(root, 'before')}/' || i || '.txt', sha256('Hotel ' || i || ' is in Paris.') FROM range(${count}) t(i)`);
  await connection.run(`INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
    SELECT 'hotels', _source, _content_hash, 'done', NULL, 1, current_timestamp FROM hotels`);
  await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, value, raw, quote, status, reason)
    SELECT 'hotels', _source, 'city', 'Paris', 'Paris', 'Paris', 'supported', NULL FROM hotels`);
  const ingest = async (directory: string, indexes: number[], prune = false) => {
    const at = performance.now();
    const result = await ingestDocuments(session, {
      documents: indexes.map((index) => documentAtPath(join(root, directory, `${index}.txt`))), schema, table: 'hotels', retryHint: '', withEvidence: true, prune,
    });
    return { milliseconds: performance.now() - at, result };
  };
  const all = Array.from({ length: count }, (_, index) => index);
  // The first run over them records each row's attribute definitions, as a run after an upgrade would.
  await ingest('before', all);
  const inPlace = await ingest('before', all);
  renameSync(join(root, 'before'), join(root, 'after'));
  const renamed = await ingest('after', all);
  const [rows, underNewPath, evidenceUnderNewPath] = (await connection.runAndReadAll(`SELECT count(*), count(*) FILTER (WHERE _source LIKE '${join(root, 'after')}/%'),
    (SELECT count(*) FROM srag_evidence WHERE source LIKE '${join(root, 'after')}/%') FROM hotels`)).getRowsJS()[0]!.map(Number);
  if (renamed.result.usage.calls !== 0 || rows !== count || underNewPath !== count || evidenceUnderNewPath !== count || renamed.result.summary.unchanged !== count) {
    throw new Error(`bench: the renamed directory's records did not all follow: ${JSON.stringify({ calls: renamed.result.usage.calls, rows, underNewPath, evidenceUnderNewPath, summary: renamed.result.summary })}`);
  }
  const kept = all.slice(0, Math.max(1, Math.floor(count / 100)));
  for (const index of all.slice(kept.length)) rmSync(join(root, 'after', `${index}.txt`));
  const gone = await ingest('after', kept);
  const pruned = await ingest('after', kept, true);
  const left = Number((await connection.runAndReadAll('SELECT count(*) FROM hotels')).getRowsJS()[0]![0]);
  if (gone.result.movedDocuments?.gone.length !== count - kept.length || left !== kept.length) throw new Error(`bench: ${count - kept.length} documents were deleted; the run found ${gone.result.movedDocuments?.gone.length} gone and --prune left ${left} rows`);

  const report = {
    documents: count,
    rerunInPlaceSeconds: seconds(inPlace.milliseconds),
    renamedDirectorySeconds: seconds(renamed.milliseconds),
    renamedOverInPlace: Number((renamed.milliseconds / inPlace.milliseconds).toFixed(2)),
    moved: renamed.result.movedDocuments?.moved.length ?? 0,
    modelCalls: renamed.result.usage.calls,
    keptDocuments: kept.length,
    goneFoundSeconds: seconds(gone.milliseconds),
    prunedSeconds: seconds(pruned.milliseconds),
  };
  const lines: Array<[string, string]> = [
    ['documents', String(count)],
    ['a rerun over them in place (all unchanged)', `${report.rerunInPlaceSeconds} s`],
    ['their directory renamed: every record follows', `${report.renamedDirectorySeconds} s = ${report.renamedOverInPlace}× the rerun; ${report.moved} moved, ${report.modelCalls} model calls`],
    [`a run over ${kept.length} of them, the rest deleted: gone found`, `${report.goneFoundSeconds} s`],
    ['the same with --prune', `${report.prunedSeconds} s`],
  ];
  process.stdout.write(`moved documents (${os.cpus().length} CPUs, Node ${process.version})\n${lines.map(([label, value]) => `  ${label.padEnd(56)} ${value}`).join('\n')}\n`);
  mkdirSync(flags['output-dir']!, { recursive: true });
  const file = join(flags['output-dir']!, `moved-documents-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
} finally {
  session.close();
  rmSync(root, { recursive: true, force: true });
}
