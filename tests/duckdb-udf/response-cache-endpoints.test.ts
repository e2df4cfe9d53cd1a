import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { ModelClient, type LanguageModel } from '../../core/index.ts';
import { statsCommand } from '../../node/cli/stats-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { runSrag } from '../helpers/run-srag.ts';

const question = { messages: [{ role: 'user' as const, content: 'How many hotels are in Rome?' }] };
const accept = (response: { text: string; cached?: boolean }) => response;

/** A database whose srag_cache holds one reply as srag wrote it before replies named their endpoint. */
async function olderDatabase(key: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'srag-older-')), 'older.duckdb');
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE srag_cache (key VARCHAR PRIMARY KEY, model VARCHAR NOT NULL, response VARCHAR NOT NULL, prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL, created_at TIMESTAMP DEFAULT current_timestamp, purpose VARCHAR)`);
  await connection.run("INSERT INTO srag_cache (key, model, response, prompt_tokens, completion_tokens) VALUES ($1, 'gpt-4o-mini', 'the stand-in''s answer', 10, 3)", [key]);
  connection.closeSync();
  instance.closeSync();
  return path;
}

function client(store: SragStore, languageModel: LanguageModel) {
  return new ModelClient({ languageModel, cache: store.responseCache(), sleep: async () => {} });
}

describe('the response cache in the DuckDB file, by endpoint', () => {
  it('serves a reply an older srag kept only to a session with no endpoint configured, and keeps it counted apart', async () => {
    const model = createRecordingLanguageModel('asked anew', 'gpt-4o-mini');
    const requestKey = client(await SragStore.open(':memory:'), model.languageModel).requestKey(question);
    const store = await SragStore.open(await olderDatabase(requestKey));
    try {
      // Configured: the older reply names no endpoint, so it is not this endpoint's — asked again.
      const openai = await client(store, { ...model.languageModel, endpoint: 'https://api.openai.com/v1' }).generate(question, accept);
      expect(openai).toMatchObject({ text: 'asked anew' });
      expect(openai.cached).toBeFalsy();
      // No endpoint configured: the older reply is served (no call can be made, none is claimed).
      const offline = createRecordingLanguageModel(new Error('no endpoint'), 'gpt-4o-mini');
      expect(await client(store, offline.languageModel).generate(question, accept)).toMatchObject({ text: "the stand-in's answer", cached: true });
      expect(offline.requests).toHaveLength(0);
      expect(await store.cachedRepliesByEndpoint()).toEqual([{ endpoint: 'https://api.openai.com/v1', replies: 1 }, { endpoint: null, replies: 1 }]);
    } finally {
      store.close();
    }
  });

  it('reads a file an older srag wrote that cannot be brought up to date (read-only): its replies, unattributed', async () => {
    // The file as an older srag left it: no endpoint or request key per reply, no kept adaptations.
    const directory = mkdtempSync(join(tmpdir(), 'srag-older-read-only-'));
    const path = join(directory, 'older.duckdb');
    (await SragStore.open(path)).close();
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run('ALTER TABLE srag_cache DROP COLUMN endpoint; ALTER TABLE srag_cache DROP COLUMN request_key; DROP TABLE srag_endpoint_adaptations');
    await connection.run("INSERT INTO srag_cache (key, model, response, prompt_tokens, completion_tokens) VALUES ('k', 'gpt-4o-mini', 'reply', 1, 1)");
    connection.closeSync();
    instance.closeSync();
    chmodSync(path, 0o444);
    chmodSync(directory, 0o555);
    try {
      // An ordinary user, as root may write anything; srag_usage() starts the SQL functions, which read the cached replies.
      const asReader = process.getuid?.() === 0 ? { user: { uid: 65534, gid: 65534 } } : {};
      const run = await runSrag(['sql', '-c', 'SELECT (SELECT count(*) FROM srag_cache) AS replies, (SELECT count(*) FROM srag_usage()) AS models', '--db', path], asReader);
      expect(run.stderr).toBe('');
      expect(run.stdout.split('\n')[2]).toMatch(/^1\s+│\s+0\s*$/);
    } finally {
      chmodSync(directory, 0o755);
    }
  });

  it('keeps what an endpoint refuses per model, and nothing else', async () => {
    const store = await SragStore.open(':memory:');
    try {
      await store.saveParameterAdaptation('https://res.openai.azure.com/openai/v1', 'my-deployment', { dropped: ['temperature'], renamed: { max_tokens: 'max_completion_tokens' } });
      await store.saveParameterAdaptation('https://res.openai.azure.com/openai/v1', 'my-deployment', { dropped: ['temperature', 'reasoning_effort'], renamed: {} });
      expect(await store.parameterAdaptations('https://res.openai.azure.com/openai/v1')).toEqual({ 'my-deployment': { dropped: ['temperature', 'reasoning_effort'], renamed: {} } });
      expect(await store.parameterAdaptations('http://localhost:11434/v1')).toEqual({});
    } finally {
      store.close();
    }
  });

  it('srag stats says how many replies the cache holds per endpoint', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-stats-'));
    const database = join(directory, 'stats.duckdb');
    const store = await SragStore.open(database);
    try {
      const answering = (text: string) => createRecordingLanguageModel(text, 'gpt-4o-mini').languageModel;
      await client(store, { ...answering('a'), endpoint: 'http://127.0.0.1:4000/v1' }).generate(question, accept);
      await client(store, { ...answering('b'), endpoint: 'http://127.0.0.1:4000/v1' }).generate({ messages: [{ role: 'user', content: 'another' }] }, accept);
      await client(store, { ...answering('c'), endpoint: 'https://api.openai.com/v1' }).generate(question, accept);
    } finally {
      store.close();
    }
    // A table for stats to describe: one empty page, logged without a call.
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(join(directory, 'docs'));
    writeFileSync(join(directory, 'docs', 'empty.md'), '');
    await runCommandInProcess((signal) => ingestCommand([join(directory, 'docs')], { schema: 'examples/hotels/schema.json', db: database, evidence: true }, signal));
    const stats = await runCommandInProcess(() => statsCommand({ db: database }));
    expect(stats.stdout).toContain('response cache (each reply served only to the endpoint that gave it): 2 replies from http://127.0.0.1:4000/v1, 1 from https://api.openai.com/v1');
    const json = await runCommandInProcess(() => statsCommand({ db: database, json: true }));
    expect(JSON.parse(json.stdout).response_cache).toEqual([{ endpoint: 'http://127.0.0.1:4000/v1', replies: 2 }, { endpoint: 'https://api.openai.com/v1', replies: 1 }]);
  });
});
