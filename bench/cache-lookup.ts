/**
 * What one grouped lookup of srag_cache costs (`SragStore.lookUpReplies`), as the cache grows: the
 * keys found first, then only their replies (now), against the replies asked for with the same IN
 * list of parameters (before) and the semi-join with the keys unnested from one JSON text (earlier).
 * `--present` is the share of the keys asked for that the cache holds: 0 as in a first run, 0.5 when
 * a rerun finds some replies. The cache has no key, as in files srag makes (`--keyed`: as in files
 * an older srag made, with a PRIMARY KEY).
 *
 *   node --import tsx bench/cache-lookup.ts [--replies 11112] [--keys 64] [--reply-bytes 8500] [--present 0.5] [--keyed]
 *
 * Prints per form: milliseconds a query (wall, mean of 5) and how far the process's peak resident
 * memory rose above where it was before (Linux: VmHWM, reset through /proc/self/clear_refs).
 * 11,112 replies of ~8.5 kB are what `srag ingest` of 100,000 generated hotel pages leaves.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDbFile } from '../node/duckdb/store/open-duckdb-file.ts';

const { values: flags } = parseArgs({ options: { replies: { type: 'string', default: '11112' }, keys: { type: 'string', default: '64' }, 'reply-bytes': { type: 'string', default: '8500' }, present: { type: 'string', default: '0.5' }, keyed: { type: 'boolean', default: false } } });
const replies = Number(flags.replies);
const keyCount = Number(flags.keys);
const replyBytes = Number(flags['reply-bytes']);

const memory = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  return { resident: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024, peak: Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024 };
};

const directory = mkdtempSync(join(tmpdir(), 'srag-cache-lookup-'));
const { instance } = await openDuckDbFile(join(directory, 'cache.duckdb'));
const connection = await instance.connect();
try {
  await connection.run(`CREATE TABLE srag_cache (key VARCHAR ${flags.keyed ? 'PRIMARY KEY' : 'NOT NULL'}, model VARCHAR NOT NULL, response VARCHAR NOT NULL, prompt_tokens BIGINT NOT NULL, completion_tokens BIGINT NOT NULL)`);
  await connection.run(`INSERT INTO srag_cache SELECT sha256('reply ' || i), 'stand-in', repeat('{"records": [], "quote": "…"} ', ${Math.ceil(replyBytes / 30)}) || i, 4000, 900 FROM range(${replies}) r(i)`);
  await connection.run('CHECKPOINT');
  const present = (await connection.runAndReadAll(`SELECT key FROM srag_cache USING SAMPLE ${Math.round(keyCount * Number(flags.present))} ROWS`)).getRowsJS().map(([key]) => String(key));
  const wanted = [...present, ...Array.from({ length: keyCount - present.length }, (_, index) => `absent ${index}`)];
  const columns = 'key, response, model, prompt_tokens, completion_tokens';
  const inList = (count: number) => Array.from({ length: count }, (_, index) => `$${index + 1}`).join(', ');
  const lookUp = async (connection: DuckDBConnection, form: string): Promise<number> => {
    if (form === 'keys first, then their replies (now)') {
      const held = (await connection.runAndReadAll(`SELECT DISTINCT key FROM srag_cache WHERE key IN (${inList(wanted.length)})`, wanted)).getRowsJS().map(([key]) => String(key));
      if (held.length === 0) return 0;
      return (await connection.runAndReadAll(`SELECT ${columns} FROM srag_cache WHERE key IN (${inList(held.length)})`, held)).getRowsJS().length;
    }
    if (form === 'replies by IN list (before)') return (await connection.runAndReadAll(`SELECT ${columns} FROM srag_cache WHERE key IN (${inList(wanted.length)})`, wanted)).getRowsJS().length;
    return (await connection.runAndReadAll(`SELECT ${columns} FROM srag_cache SEMI JOIN (SELECT unnest(CAST($1 AS JSON)::VARCHAR[]) AS wanted) ON key = wanted`, [JSON.stringify(wanted)])).getRowsJS().length;
  };
  const forms = ['keys first, then their replies (now)', 'replies by IN list (before)', 'semi-join over unnested JSON (earlier)'];
  console.log(`${replies} replies of ~${replyBytes} bytes${flags.keyed ? ' (keyed cache)' : ''}, ${wanted.length} keys a lookup (${present.length} in the cache)`);
  for (const name of forms) {
    // Each form starts from a buffer cache holding none of the table, as after srag's trim.
    await connection.run("SET memory_limit = '16MB'");
    await connection.run("SET memory_limit = '8GB'");
    const before = memory().resident;
    writeFileSync('/proc/self/clear_refs', '5');
    const started = performance.now();
    let found = 0;
    for (let run = 0; run < 5; run++) found = await lookUp(connection, name);
    const milliseconds = (performance.now() - started) / 5;
    console.log(`${name.padEnd(40)} ${milliseconds.toFixed(1).padStart(7)} ms a lookup, peak +${(memory().peak - before).toFixed(0)} MB, ${found} found`);
  }
} finally {
  connection.closeSync();
  instance.closeSync();
  rmSync(directory, { recursive: true, force: true });
}
