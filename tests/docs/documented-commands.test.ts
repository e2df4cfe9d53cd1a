import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../helpers/copy-repository.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runProcess } from '../helpers/run-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';
import { writePackageRunnerShims } from './package-runner-shims.ts';
import { readDocumentedBlocks, type DocumentedBlock } from './read-documented-blocks.ts';

// README.md and docs/*.md promise that their commands run as written. Every ```sh block runs, in
// document order, as one bash script (`set -e`) in a copy of the repository, against the LLM
// stand-in; README's ```sql blocks run as `srag run` jobs (docs/sql-functions.md's SQL has its own
// test). A command that cannot run here is skipped only when an HTML comment above its block says
// so, with the reason (see read-documented-blocks.ts). Afterwards the copy must be as clean as git
// sees it: the commands write only where .gitignore expects output. `npx srag`, `npx tsx` and
// `npm run` run what npm would run, without npm's start-up (see package-runner-shims.ts).

const documents = ['README.md', ...readdirSync(join(repositoryRoot, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const blocks = documents.flatMap((document) => readDocumentedBlocks(document, readFileSync(join(repositoryRoot, document), 'utf8')));

let standIn: LlmStandIn;
let copy: string;
/** The directory of the npx and npm the scripts find first. */
let shims: string;
const outputs = new Map<DocumentedBlock, string>();

/** The repository's files as git would check them out, committed in a fresh repository. */
function copyRepositoryCommitted(): string {
  const directory = copyRepository('srag-documented-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: directory, env: { ...process.env, GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.com' } });
  git('init', '-q');
  writeFileSync(join(directory, '.git/info/exclude'), '/node_modules\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'the repository as documented');
  return directory;
}

/** A reader's shell: the machine's variables without any model settings, plus `extra`. */
function shellEnvironment(extra: Record<string, string>): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('OPENAI_') && !name.startsWith('SRAG_') && name !== 'LLM_STAND_IN_PID') environment[name] = value;
  }
  return { ...environment, PATH: `${shims}:${environment.PATH}`, npm_config_update_notifier: 'false', ...extra };
}

async function runScript(script: string, environment: Record<string, string>): Promise<{ status: number | null; output: string }> {
  // The stand-in's readiness line and srag's progress go to stderr; both belong to what a reader sees.
  const run = await runProcess('bash', ['-c', `exec 2>&1\n${script}`], { cwd: copy, env: environment });
  return { status: run.status, output: run.stdout };
}

/** The block as a bash script: stop at the first failing command, and stop a stand-in the block started. */
function scriptOf(block: DocumentedBlock): string {
  const body = block.language === 'sql'
    ? `cat > .documented-block.sql <<'SQL'\n${block.code}\nSQL\nnpx srag run .documented-block.sql --db :memory:\nrm .documented-block.sql`
    : block.lines.map((line) => (line.skipped ? `: skipped: ${line.command}` : line.text)).join('\n');
  return `set -eo pipefail\ntrap '[ -n "\${LLM_STAND_IN_PID:-}" ] && kill "$LLM_STAND_IN_PID" 2>/dev/null; true' EXIT\n${body}\n`;
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/cities'] });
  copy = copyRepositoryCommitted();
  shims = mkdtempSync(join(tmpdir(), 'srag-documented-shims-'));
  writePackageRunnerShims(shims, copy);
}, 120_000);
afterAll(async () => {
  await standIn?.close();
});

describe('the commands in README.md and docs/', () => {
  it('run `npx srag` as npm resolves it: the package\'s own bin, bin/srag.js of the checkout', async () => {
    // npm exec links the package in the current directory under ~/.npm/_npx and runs the bin its
    // package.json names (seen with strace: …/_npx/<hash>/node_modules/.bin/srag -> ../srag/bin/srag.js).
    const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
    expect(manifest.bin).toEqual({ srag: 'bin/srag.js' });
    const { PATH, ...rest } = shellEnvironment({});
    const real = await runProcess('npx', ['srag', '--version'], { cwd: copy, env: { ...rest, PATH: PATH!.slice(shims.length + 1) } });
    expect(real.stdout).toBe(`${manifest.version}\n`);
    const shimmed = await runScript('type npx && npx srag --version', shellEnvironment({}));
    expect(shimmed.output).toBe(`npx is ${shims}/npx\n${manifest.version}\n`);
  });

  it('are found, and every skipped one says why', () => {
    expect(blocks.filter((block) => block.document === 'README.md').length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) {
      for (const line of block.lines.filter((candidate) => candidate.skipped)) expect(line.reason, `${block.document}:${block.line}`).toMatch(/\w{3,}/);
    }
  });

  for (const block of blocks) {
    it(`${block.document}:${block.line} runs as written`, async () => {
      if (block.lines.every((line) => line.skipped || !line.command)) return;
      const environment = shellEnvironment(block.freshMachine ? {} : { OPENAI_BASE_URL: standIn.url });
      const { status, output } = await runScript(scriptOf(block), environment);
      outputs.set(block, output);
      expect(status, `${block.document}:${block.line} failed:\n${output.slice(-3000)}`).toBe(0);
    }, 600_000);
  }

  it('runs the Quickstart offline: the demo says so, and its question is answered again from the cache', () => {
    const quickstart = blocks.find((block) => block.document === 'README.md' && block.code.includes('npm run demo'))!;
    const output = outputs.get(quickstart)!;
    expect(quickstart.freshMachine).toBe(true);
    expect(output).toContain('=== OFFLINE DEMO ===');
    expect(output).toMatch(/answers only the 26 questions of examples\/hotels\/questions\.jsonl/);
    expect(output.split('\n').filter((line) => line.trim() === '378.75').length).toBeGreaterThanOrEqual(2);
  });

  it('prints the evaluation table README.md shows, for the command next to it', () => {
    const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
    const shown = /```\n(system +questions +errors[^\n]*\n(?:[^\n`]+\n)+)```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    const evaluation = blocks.find((block) => block.document === 'README.md' && block.code.includes('npx srag eval'))!;
    const rows = (text: string) => text.split('\n').filter((line) => /^(srag|rag|full-corpus) +\d/.test(line)).map((line) => line.trim().split(/ {2,}/).slice(0, 6).join(' | '));
    expect(rows(outputs.get(evaluation)!)).toEqual(rows(shown!));
  });

  it('leave the copy clean: nothing written outside git-ignored folders, no tracked file changed', () => {
    expect(outputs.size).toBeGreaterThan(0);
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: copy, encoding: 'utf8' })).toBe('');
  });
});
