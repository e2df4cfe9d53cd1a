import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackage, type InstalledPackage } from '../helpers/install-packed-package.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { readGoldQuestions } from '../helpers/gold-questions.ts';
import { runProcess } from '../helpers/run-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// One tarball, one install, one small corpus for the whole file: the package as a user gets it.
const corpus = 'tests/llm-stand-in/fixture-corpus';
let installed: InstalledPackage;
let standIn: LlmStandIn;

/** The user's environment: the stand-in as the endpoint, nothing from the machine's OPENAI_/SRAG_ settings. */
function environment(): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('OPENAI_') && !name.startsWith('SRAG_')) variables[name] = value;
  }
  return { ...variables, OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' };
}

const srag = (args: string[]) => runProcess(installed.command, args, { cwd: installed.project, env: environment() });

beforeAll(async () => {
  [installed, standIn] = await Promise.all([installPackedPackage(), startLlmStandIn({ corpora: [corpus] })]);
  // The user's own folder: documents and a schema next to their project, not in the repository.
  cpSync(join(repositoryRoot, corpus, 'docs'), join(installed.project, 'docs'), { recursive: true });
  cpSync(join(repositoryRoot, corpus, 'schema.json'), join(installed.project, 'schema.json'));
});
afterAll(async () => {
  await standIn?.close();
});

describe('the packed tarball installed into a project outside the repository', () => {
  it('ships built JavaScript and prompts, without the TypeScript sources, tsx or esbuild', () => {
    const installedPackage = join(installed.project, 'node_modules', 'srag');
    expect(existsSync(join(installedPackage, 'dist', 'cli.js'))).toBe(true);
    expect(existsSync(join(installedPackage, 'dist', 'bridge-worker.js'))).toBe(true);
    expect(existsSync(join(installedPackage, 'prompts', 'extract-record.md'))).toBe(true);
    expect(existsSync(join(installedPackage, 'node'))).toBe(false);
    // srag serve's page: its HTML and one script for the browser (with the chart library), not its sources.
    expect(existsSync(join(installedPackage, 'serve-page', 'index.html'))).toBe(true);
    expect(existsSync(join(installedPackage, 'serve-page', 'src'))).toBe(false);
    expect(readFileSync(join(installedPackage, 'dist', 'serve-page.js'), 'utf8')).not.toMatch(/\bfrom\s*["']@observablehq|import\s*["']d3-/);
    expect(existsSync(join(installed.project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(installed.project, 'node_modules', 'esbuild'))).toBe(false);
  });

  it('prints its help and its version', async () => {
    const help = await srag(['--help']);
    expect(help.status, help.stderr).toBe(0);
    for (const command of ['schema', 'ingest', 'ask', 'sql', 'why', 'eval']) expect(help.stdout).toContain(`  ${command} `);
    // The package has no examples: what to do without a model, and no demo to run.
    expect(help.stdout).toContain('OPENAI_BASE_URL=http://localhost:11434/v1');
    expect(help.stdout).not.toContain('npm run demo');
    const version = await srag(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).version);
  });

  it('ingests the user\'s documents and answers a question from SQL, run from the project directory', async () => {
    const ingest = await srag(['ingest', 'docs', '--schema', 'schema.json']);
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(/^mini_hotel: 4 done, 0 failed/);
    expect(existsSync(join(installed.project, 'srag.duckdb'))).toBe(true);
    const [question] = readGoldQuestions(corpus);
    const ask = await srag(['ask', question!.question, '--json']);
    expect(ask.status, ask.stderr).toBe(0);
    const result = JSON.parse(ask.stdout) as { answer: string; sql: string; rows: unknown[][] };
    expect(result.sql).toBe(question!.sql);
    expect(result.rows).toEqual(question!.gold);
  });

  it('counts tokens with its own o200k tokenizer where byte counts do not decide (loaded by require from the built code)', async () => {
    // A budget below the prompt's bytes: the plan counts tokens instead of trusting the ceilings.
    const run = await runProcess(installed.command, ['ingest', 'docs', '--schema', 'schema.json', '--db', 'estimate.duckdb', '--dry-run', '--json'], {
      cwd: installed.project, env: { ...environment(), SRAG_MAX_INPUT_TOKENS: '2000' },
    });
    expect(run.status, run.stderr).toBe(0);
    const estimate = JSON.parse(run.stdout) as { documents: number; prompt_tokens: number };
    expect(estimate.documents).toBe(4);
    expect(estimate.prompt_tokens).toBeGreaterThan(0);
  });

  it('runs srag_ask through SQL, which starts the built session and bridge workers', async () => {
    const [, question] = readGoldQuestions(corpus);
    const run = await srag(['sql', '--json', '-c', `SELECT sql FROM srag_ask('${question!.question}')`]);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).rows).toEqual([[question!.sql]]);
  });

  it('is importable as a library, with type declarations, from the user\'s own module', async () => {
    const [, , question] = readGoldQuestions(corpus);
    writeFileSync(join(installed.project, 'ask.ts'), `
import { openSragDatabase, type SragDatabase } from 'srag';

const database: SragDatabase = await openSragDatabase('srag.duckdb', { progress: false });
const reader = await database.connection.runAndReadAll(${JSON.stringify(`SELECT sql FROM srag_ask('${question!.question.replaceAll("'", "''")}')`)});
console.log(JSON.stringify(reader.getRowsJS()));
await database.close();
`);
    writeFileSync(join(installed.project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: ['node'], typeRoots: [join(repositoryRoot, 'node_modules', '@types')] },
      files: ['ask.ts'],
    }));
    const typecheck = await runProcess(process.execPath, [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', installed.project], { cwd: installed.project });
    expect(typecheck.status, typecheck.stdout + typecheck.stderr).toBe(0);
    // Node 20.19 runs the module once its types are stripped: the one annotation is all there is.
    writeFileSync(join(installed.project, 'ask.mjs'), readFileSync(join(installed.project, 'ask.ts'), 'utf8').replace(', type SragDatabase', '').replace(': SragDatabase', ''));
    const run = await runProcess(process.execPath, ['ask.mjs'], { cwd: installed.project, env: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([[question!.sql]]);
  });
});
