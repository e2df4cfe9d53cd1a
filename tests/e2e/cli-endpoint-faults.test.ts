import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

/**
 * `srag` against endpoints that fail the way real ones do: refusing connections, echoing the key
 * and the URL they were called with, and answering 429 when the quota is spent.
 */
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-endpoint-faults-'));
const apiKey = 'plain-local-key-7f3a9c';
const secrets = ['proxy-user', 'proxy-pass-99', 'QUERYSECRET42', apiKey, '7f3a9c'];
const leaksIn = (text: string) => secrets.filter((secret) => text.includes(secret));
const ingestArgs = (database: string) => ['ingest', 'examples/hotels/docs/a*', '--schema', 'examples/hotels/schema.json', '--db', database];

let server: http.Server;
let address: string;
const requests: Array<{ url: string; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      requests.push({ url: String(request.url), body });
      const key = String(request.headers.authorization).replace(/^Bearer /, '');
      if (request.url?.startsWith('/quota/')) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end(JSON.stringify({ error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } }));
        return;
      }
      // A proxy that echoes everything it was given, the key partly masked and whole.
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `upstream refused ${request.headers.host}${request.url} for ${key.slice(0, 4)}*********${key.slice(-4)} (${key})` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('secrets in OPENAI_BASE_URL and echoes of the key', () => {
  it('shows the unreachable endpoint without its credentials or query values', async () => {
    const run = await runSragInProcess(ingestArgs(join(workDirectory, 'unreachable.duckdb')), {
      environment: { OPENAI_BASE_URL: 'http://proxy-user:proxy-pass-99@127.0.0.1:9/v1?api-key=QUERYSECRET42', OPENAI_API_KEY: apiKey },
    });
    expect(run.status).toBe(4);
    expect(run.stderr.trim().split('\n')).toEqual(['srag: cannot reach the model endpoint http://[redacted]@127.0.0.1:9/v1?api-key=[redacted] — check OPENAI_BASE_URL and that the server is running']);
    expect(leaksIn(run.stdout + run.stderr)).toEqual([]);
  });

  it('keeps them out of the failed documents\' lines and the srag_ingestion_log table when the endpoint echoes them', async () => {
    const database = join(workDirectory, 'echoing.duckdb');
    const run = await runSragInProcess(ingestArgs(database), {
      environment: { OPENAI_BASE_URL: `http://proxy-user:proxy-pass-99@${address}/echo/v1?api-key=QUERYSECRET42`, OPENAI_API_KEY: apiKey, SRAG_MAX_RETRIES: '0' },
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^failed: .*: the model endpoint answered 500: upstream refused 127\.0\.0\.1:\d+\/echo\/v1\/chat\/completions\?api-key=\[redacted\] for \[redacted\] \(\[redacted\]\)$/m);
    expect(requests.some((request) => request.url === '/echo/v1/chat/completions?api-key=QUERYSECRET42')).toBe(true);
    const log = await runSragInProcess(['sql', '--db', database, '--json', '-c', "SELECT count(*) AS failed, string_agg(error, ' | ') AS errors FROM srag_ingestion_log WHERE status = 'failed'"]);
    const [[failed, errors]] = JSON.parse(log.stdout).rows;
    expect(failed).toBeGreaterThan(0);
    expect(errors).toContain('[redacted]');
    expect(leaksIn(run.stdout + run.stderr + log.stdout)).toEqual([]);
  });
});

describe('a spent quota', () => {
  it('ends the run with one line and sends no request twice: a 429 that says insufficient_quota is not retried', async () => {
    requests.length = 0;
    const run = await runSragInProcess(ingestArgs(join(workDirectory, 'quota.duckdb')), {
      environment: { OPENAI_BASE_URL: `http://${address}/quota/v1`, OPENAI_API_KEY: apiKey, SRAG_CONCURRENCY: '1', SRAG_MAX_RETRIES: '6' },
    });
    expect(run.status).toBe(4);
    expect(run.stderr.trim().split('\n')).toEqual(['srag: the model provider\'s quota is used up: You exceeded your current quota, please check your plan and billing details. — check the plan and billing of the API key']);
    const bodies = requests.map((request) => request.body);
    expect(bodies.length).toBeGreaterThan(0);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(bodies.length).toBeLessThanOrEqual(2);
  });
});
