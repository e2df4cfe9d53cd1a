import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { promptNames } from '../../core/index.ts';
import { buildSheetsAddon } from '../../sheets-addon/build.mjs';
import { AppsScriptHost } from './helpers/apps-script-host/apps-script-host.ts';
import { builtInsNewerThanEs2020, es2020RealmSource, remainingNewerBuiltInsSource } from './helpers/apps-script-host/es2020-realm.mjs';

let code: string;
let sidebar: string;
let manifest: { runtimeVersion: string; oauthScopes: string[] };

beforeAll(() => {
  // What `npm run build:sheets` runs, without npm's start-up (the documented-commands test runs the npm script as written).
  execFileSync(process.execPath, ['sheets-addon/build.mjs'], { stdio: 'pipe' });
  code = readFileSync('sheets-addon/dist/Code.js', 'utf8');
  sidebar = readFileSync('sheets-addon/dist/Sidebar.html', 'utf8');
  manifest = JSON.parse(readFileSync('sheets-addon/dist/appsscript.json', 'utf8'));
});

/** Top-level function declarations with the JSDoc block right above each. */
function topLevelFunctions(source: string): Map<string, { parameters: string[]; doc: string }> {
  const found = new Map<string, { parameters: string[]; doc: string }>();
  for (const match of source.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)\nfunction ([A-Za-z_]+)\(([^)]*)\) \{/g)) {
    found.set(match[2]!, { doc: match[1]!, parameters: match[3]!.split(',').map((parameter) => parameter.trim()).filter(Boolean) });
  }
  return found;
}

describe('npm run build:sheets', () => {
  it('writes Code.js, appsscript.json, Sidebar.html and Picker.html to sheets-addon/dist', () => {
    expect(readdirSync('sheets-addon/dist').sort()).toEqual(['Code.js', 'Picker.html', 'Sidebar.html', 'appsscript.json']);
  });

  it('puts nothing Node-specific in the bundle, and no native async functions', () => {
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/["'`]node:/);
    expect(code).not.toMatch(/\bprocess\./);
    expect(code).not.toMatch(/\basync\s+(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/);
    expect(code).not.toMatch(/\bawait\s/);
    expect(code).toContain('var Promise = SragSyncPromise.SyncPromise;');
  });

  it('carries no schema library that Apps Script would evaluate on every call (schemas are checked by hand in core)', () => {
    expect(code).not.toMatch(/"Zod(Mini)?Object"/);
  });

  it('loads as Apps Script loads it, with no service touched and no built-in newer than ES2020, and exposes every entry point at top level', () => {
    const context = vm.createContext({});
    vm.runInContext(es2020RealmSource, context);
    expect(vm.runInContext(remainingNewerBuiltInsSource, context)).toEqual([]);
    vm.runInContext(code, context, { filename: 'Code.js' });
    for (const name of ['onOpen', 'onInstall', 'SRAG_EXTRACT', 'SRAG_ASK', 'saveSettings', 'getSidebarState', 'startExtraction', 'extractNextChunk', 'releaseClaim', 'stopExtraction', 'predictSchemaFromDocuments']) {
      expect(typeof context[name], name).toBe('function');
    }
  });

  it('calls no built-in newer than ES2020 anywhere, not only on the paths the tests run', () => {
    const names = builtInsNewerThanEs2020.filter((name) => !name.startsWith('Set.prototype.') && name !== 'Iterator');
    const calls = names.map((name) => {
      const member = name.replace(/^(Array|String|TypedArray|ArrayBuffer)\.prototype\./, '.');
      const pattern = member.startsWith('.') ? `\\${member}\\(` : `\\b${member.replace('.', '\\.')}\\b`;
      return { name, found: new RegExp(pattern).exec(code)?.[0] };
    });
    expect(calls.filter((call) => call.found !== undefined)).toEqual([]);
  });

  it('gives each custom function @customfunction JSDoc with its real parameter names, for Sheets\' formula help', () => {
    const functions = topLevelFunctions(code);
    expect(functions.get('SRAG_EXTRACT')!.parameters).toEqual(['text', 'schema_range']);
    expect(functions.get('SRAG_ASK')!.parameters).toEqual(['question', 'records_range', 'with_query']);
    for (const name of ['SRAG_EXTRACT', 'SRAG_ASK']) {
      const { doc, parameters } = functions.get(name)!;
      expect(doc).toContain('@customfunction');
      for (const parameter of parameters) expect(doc).toMatch(new RegExp(`@param \\{[^}]+\\} \\[?${parameter}\\]? \\S`));
    }
    expect(functions.get('saveSettings')!.doc).not.toContain('@customfunction');
  });

  it('inlines the same prompt texts srag reads from prompts/*.md', () => {
    const context = vm.createContext({});
    vm.runInContext(code, context);
    const library = vm.runInContext('SragAddon.loadPromptLibrary()', context) as Record<string, string>;
    for (const name of promptNames) expect(library[name], name).toBe(readFileSync(`prompts/${name}.md`, 'utf8'));
  });

  it('asks for V8 and the narrowest scopes that work, none of them restricted (drive.file, not drive.readonly)', () => {
    expect(manifest.runtimeVersion).toBe('V8');
    expect(manifest.oauthScopes.sort()).toEqual([
      'https://www.googleapis.com/auth/drive.file',
      'https://www.googleapis.com/auth/script.container.ui',
      'https://www.googleapis.com/auth/script.external_request',
      'https://www.googleapis.com/auth/spreadsheets.currentonly',
    ]);
  });

  it('lists no urlFetchWhitelist by default, so a bound script or test deployment reaches any endpoint', () => {
    expect(manifest).not.toHaveProperty('urlFetchWhitelist');
  });

  it('with --allow-url, lists those endpoints and the Drive API for a versioned deployment, and Settings refuses any other endpoint', async () => {
    const distDirectory = mkdtempSync(path.join(tmpdir(), 'srag-sheets-allowlist-'));
    await buildSheetsAddon({ distDirectory, urlFetchAllowlist: ['https://api.example.com/v1/'] });
    const built = JSON.parse(readFileSync(path.join(distDirectory, 'appsscript.json'), 'utf8')) as { urlFetchWhitelist: string[] };
    expect(built.urlFetchWhitelist).toEqual(['https://api.example.com/v1/', 'https://www.googleapis.com/drive/v3/']);
    const host = new AppsScriptHost(distDirectory);
    try {
      await expect(host.run('saveSettings', [{ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' }]))
        .rejects.toThrow(/^srag \[INPUT_INVALID\]: this deployment of srag may call only https:\/\/api\.example\.com\/v1\/ \(its urlFetchWhitelist\), not https:\/\/api\.openai\.com\/v1 — .*--allow-url/);
      await expect(host.run('saveSettings', [{ baseUrl: 'https://api.example.com/v1', model: 'gpt-4o-mini' }])).resolves.toMatchObject({ baseUrl: 'https://api.example.com/v1' });
    } finally {
      await host.close();
    }
  });

  it('refuses an allowlist entry Apps Script would refuse, in one line', () => {
    const build = spawnSync(process.execPath, ['sheets-addon/build.mjs', '--allow-url', 'http://localhost:8080'], { encoding: 'utf8' });
    expect(build.status).toBe(1);
    expect(build.stderr).toBe('build:sheets: --allow-url "http://localhost:8080" must be an https:// URL prefix with a full domain and a path, e.g. https://api.openai.com/v1/\n');
  });

  it('builds a sidebar that loads nothing from the network and carries the batch driver', () => {
    expect(sidebar).toContain('SragSidebar');
    expect(sidebar).toContain('BatchDriver');
    expect(sidebar).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/);
  });
});
