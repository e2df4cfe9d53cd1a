import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { AppsScriptHost } from './helpers/apps-script-host/apps-script-host.ts';
import { connectPageToHost } from './helpers/google-script-run-stub.ts';
import { buildBundleForTest, corpusDocuments, preparedSpreadsheet, runSidebarBatch } from './helpers/sheets-fixtures.ts';

const chromiumPath = '/usr/bin/chromium';
const skip = process.env.SRAG_SKIP_BROWSER === '1';
const hotels = corpusDocuments('examples/hotels');
const files = [
  { id: '1DrivePickedHotelOneAbCdEfGh', document: hotels[4]! },
  { id: '1DrivePickedHotelTwoAbCdEfGh', document: hotels[5]! },
];

/**
 * What apis.google.com/js/api.js would load, standing in for the Google Picker: the builder
 * records every call, and showing the picker "picks" the files above, which grants the add-on
 * access to them (drive.file), as the real Picker does.
 */
const pickerApiStub = `
  window.__pickerCalls = [];
  function record(name, args) { window.__pickerCalls.push([name].concat(Array.prototype.slice.call(args).map(String))); }
  window.gapi = { load: function (name, options) { record('gapi.load', [name]); setTimeout(options.callback, 0); } };
  window.google.picker = {
    ViewId: { DOCS: 'all' },
    Feature: { MULTISELECT_ENABLED: 'multiselect', SUPPORT_DRIVES: 'supportDrives' },
    Response: { ACTION: 'action', DOCUMENTS: 'docs' },
    Action: { PICKED: 'picked', CANCEL: 'cancel' },
    Document: { ID: 'id', NAME: 'name' },
    DocsView: function (viewId) {
      record('DocsView', [viewId]);
      var view = this;
      ['setIncludeFolders', 'setMimeTypes'].forEach(function (name) { view[name] = function () { record(name, arguments); return view; }; });
    },
    PickerBuilder: function () {
      var builder = this;
      var callback;
      ['addView', 'enableFeature', 'hideTitleBar', 'setOAuthToken', 'setDeveloperKey', 'setAppId', 'setOrigin', 'setSize'].forEach(function (name) {
        builder[name] = function () { record(name, name === 'addView' ? ['view'] : arguments); return builder; };
      });
      builder.setCallback = function (handler) { callback = handler; return builder; };
      builder.build = function () {
        return { setVisible: function () {
          record('setVisible', arguments);
          window.__grantPicked(${JSON.stringify(files.map((file) => file.id))}).then(function () {
            callback({ action: 'picked', docs: ${JSON.stringify(files.map((file) => ({ id: file.id, name: file.document.source, mimeType: 'text/markdown' })))} });
          });
        } };
      };
    },
  };
  window.onApiLoad();
`;

let standIn: LlmStandIn;
let distDirectory: string;
let browser: Browser;
let host: AppsScriptHost;
let page: Page;

async function openPicker(): Promise<void> {
  page = await browser.newPage();
  await connectPageToHost(page, host);
  await page.exposeFunction('__grantPicked', (ids: string[]) => {
    for (const id of ids) host.fetch.pickedFiles.add(id);
  });
  await page.route('https://apis.google.com/js/api.js**', (route) => route.fulfill({ contentType: 'text/javascript', body: pickerApiStub }));
  await page.goto(pathToFileURL(path.join(distDirectory, 'Picker.html')).href);
}

describe.skipIf(skip)('Add files from Drive: the Picker dialog in headless Chromium', () => {
  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(`Chromium is not installed at ${chromiumPath}: install it with \`apt-get update && apt-get install -y chromium\` (as root), or set SRAG_SKIP_BROWSER=1 to skip this test explicitly`);
    }
    distDirectory = await buildBundleForTest();
    standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await standIn?.close();
  });

  beforeEach(async () => {
    host = new AppsScriptHost(distDirectory);
    for (const file of files) host.fetch.driveFiles.set(file.id, { name: file.document.source, mimeType: 'text/markdown', content: file.document.text });
    await preparedSpreadsheet(host, { corpus: 'examples/hotels', documents: hotels.slice(0, 2), baseUrl: standIn.url });
  });

  afterEach(async () => {
    await page?.close();
    await host.close();
  });

  it('shows the Picker with the user\'s token, the API key and the Cloud project, adds the picked files to Documents and closes; a batch then extracts them', async () => {
    host.scriptProperties.setProperties({ 'srag.pickerApiKey': 'AIzaSyTestPickerKey', 'srag.cloudProjectNumber': '123456789012' });
    await openPicker();
    await expect.poll(() => page.evaluate('window.__closed === true'), { timeout: 20_000 }).toBe(true);

    const calls = await page.evaluate('window.__pickerCalls') as string[][];
    for (const call of [['setOAuthToken', 'test-oauth-token'], ['setDeveloperKey', 'AIzaSyTestPickerKey'], ['setAppId', '123456789012'], ['setOrigin', 'https://docs.google.com'], ['enableFeature', 'multiselect']]) {
      expect(calls).toContainEqual(call);
    }
    expect(calls.find((call) => call[0] === 'setMimeTypes')![1]).toContain('application/vnd.google-apps.document');
    const documents = host.spreadsheet.sheet('Documents')!.values.slice(1).map((row) => String(row[0]));
    expect(documents).toEqual([hotels[0]!.source, hotels[1]!.source, ...files.map((file) => file.document.source)]);
    expect(host.spreadsheet.toasts.at(-1)).toBe('2 file(s) added to Documents.');

    const outcome = await runSidebarBatch(host);
    expect(outcome.progress).toMatchObject({ total: 4, done: 4, failed: 0 });
  });

  it('says in the dialog which script properties are missing, and adds nothing', async () => {
    await openPicker();
    await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toMatch(/^srag \[INPUT_INVALID\]: Add files from Drive is not set up: the script property srag\.pickerApiKey and srag\.cloudProjectNumber is missing/);
    expect(await page.getAttribute('#status', 'class')).toBe('bad');
    expect(host.spreadsheet.sheet('Documents')!.values).toHaveLength(3);
  });
});

describe.runIf(skip)('the Picker browser test', () => {
  it.skip('is skipped because SRAG_SKIP_BROWSER=1', () => {});
});
