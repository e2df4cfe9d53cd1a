import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { AppsScriptHost } from './helpers/apps-script-host/apps-script-host.ts';
import { buildBundleForTest, firstCell, corpusDocuments, everythingVisible, preparedSpreadsheet, rangeValues, runSidebarBatch, sidebarDriver, testApiKey } from './helpers/sheets-fixtures.ts';

const hotels = corpusDocuments('examples/hotels');

let distDirectory: string;
let standIn: LlmStandIn;
/** An endpoint that refuses the key and, as some providers do, quotes it back in the error. */
let refusingEndpoint: http.Server;
let refusingUrl: string;
const authorizationsSeen: string[] = [];

beforeAll(async () => {
  distDirectory = await buildBundleForTest();
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  refusingEndpoint = http.createServer((request, response) => {
    authorizationsSeen.push(String(request.headers.authorization));
    request.resume();
    const key = String(request.headers.authorization).replace(/^Bearer /, '');
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.example/account. (${key.slice(0, 4)}****${key.slice(-4)} on ${request.url})`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((resolve) => refusingEndpoint.listen(0, '127.0.0.1', resolve));
  refusingUrl = `http://127.0.0.1:${(refusingEndpoint.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await standIn.close();
  await new Promise((resolve) => refusingEndpoint.close(resolve));
});

function expectNoKeyIn(texts: string[]): void {
  const leaks = texts.filter((text) => text.includes(testApiKey) || text.includes(testApiKey.slice(3, 15)));
  expect(leaks).toEqual([]);
}

describe('the API key in the Sheets add-on', () => {
  it('is kept in the saving user\'s properties and never returned to the sidebar', async () => {
    const host = new AppsScriptHost(distDirectory);
    try {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 2), baseUrl: standIn.url });
      expect(host.userProperties.owner.getProperty('srag.apiKey')).toBe(testApiKey);
      const state = await host.run<{ settings: Record<string, unknown> }>('getSidebarState');
      expect(state.settings).toEqual({ baseUrl: standIn.url, model: 'srag-stand-in', apiKeySaved: true });
      expect(JSON.stringify(state)).not.toContain(testApiKey);
      const kept = await host.run('saveSettings', [{ baseUrl: standIn.url, apiKey: '', model: 'other-model' }]);
      expect(kept).toEqual({ baseUrl: standIn.url, model: 'other-model', apiKeySaved: true });
      expect(host.userProperties.owner.getProperty('srag.apiKey')).toBe(testApiKey);
      expect(await host.run('saveSettings', [{ baseUrl: standIn.url, model: 'other-model', clearApiKey: true }])).toMatchObject({ apiKeySaved: false });
      await expect(host.run('saveSettings', [{ baseUrl: 'ftp://example.com', apiKey: testApiKey }])).rejects.toThrow(/srag \[INPUT_INVALID\]: the base URL must start with https/);
    } finally {
      await host.close();
    }
  });

  it('appears in no cell, note, log line, cache entry, document property or error message after a batch with faults, custom functions and a refusing endpoint', async () => {
    const host = new AppsScriptHost(distDirectory);
    try {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 12), baseUrl: standIn.url });
      standIn.setOptions({ faultRate: 0.2, faultKinds: ['rate_limit', 'server_error', 'malformed_json'], seed: 3 });
      await runSidebarBatch(host);
      standIn.setOptions({ faultRate: 0 });
      const answers = [
        await host.runCustomFunction('SRAG_ASK', ['How many hotels are in Spain?', rangeValues(host, 'Records')]),
        await host.runCustomFunction('SRAG_EXTRACT', [hotels[20]!.text, rangeValues(host, 'Schema')]),
      ];

      await host.run('saveSettings', [{ baseUrl: refusingUrl, apiKey: testApiKey, model: 'srag-stand-in' }]);
      const refusedCell = firstCell(await host.runCustomFunction<string[][]>('SRAG_ASK', ['How many hotels are in Rome?', rangeValues(host, 'Records')]));
      expect(refusedCell).toMatch(/^⚠ srag: the model request failed: the model endpoint answered 401: Incorrect API key provided: \[redacted\]/);
      expect(authorizationsSeen).toContain(`Bearer ${testApiKey}`);
      host.spreadsheet.sheet('Documents')!.set('values', 2, 2, `${hotels[0]!.text}\n<p>changed</p>`);
      const outcome = await sidebarDriver(host).start('all');
      expect(outcome.error).toMatch(/^srag \[LLM_REQUEST_FAILED 401\]: the model endpoint answered 401: Incorrect API key provided: \[redacted\]/);

      expectNoKeyIn([...everythingVisible(host), JSON.stringify(answers), refusedCell, outcome.error ?? '']);
      expect(everythingVisible(host).length).toBeGreaterThan(100);
    } finally {
      await host.close();
    }
  });

  it('keeps the credentials and query values of a base URL out of the cells, whether the endpoint echoes them or cannot be reached', async () => {
    const host = new AppsScriptHost(distDirectory);
    const urlSecrets = ['proxy-user', 'proxy-pass-99', 'QUERYSECRET42'];
    try {
      await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 2), baseUrl: standIn.url });
      await host.run('saveSettings', [{ baseUrl: `${refusingUrl}?api-key=QUERYSECRET42`, apiKey: testApiKey, model: 'srag-stand-in' }]);
      const echoed = firstCell(await host.runCustomFunction<string[][]>('SRAG_ASK', ['How many hotels are in Rome?', [['city'], ['Rome']]]));
      expect(echoed).toMatch(/^⚠ srag: the model request failed: the model endpoint answered 401: .*on \/v1\/chat\/completions\?api-key=\[redacted\]/);

      await host.run('saveSettings', [{ baseUrl: `${refusingUrl.replace('http://', 'http://proxy-user:proxy-pass-99@')}?api-key=QUERYSECRET42`, apiKey: testApiKey, model: 'srag-stand-in' }]);
      const unreachable = firstCell(await host.runCustomFunction<string[][]>('SRAG_ASK', ['How many hotels are in Lisbon?', [['city'], ['Lisbon']]]));
      expect(unreachable).toContain('cannot reach the model endpoint http://[redacted]@127.0.0.1:');
      expect(unreachable).toContain('/v1?api-key=[redacted]');

      const visible = [...everythingVisible(host), echoed, unreachable].join('\n');
      expect(urlSecrets.filter((secret) => visible.includes(secret))).toEqual([]);
      expectNoKeyIn([visible]);
    } finally {
      await host.close();
    }
  });
});
