import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runProcess } from '../helpers/run-process.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// docs/sql-functions.md promises that its examples run as written: ```sql blocks succeed in order
// (as one `srag run` job), ```sql fails blocks fail with the error their `-- error:` line quotes,
// and the ```ts block runs as a program.
const documentation = readFileSync(join(repositoryRoot, 'docs/sql-functions.md'), 'utf8');
const blocks = [...documentation.matchAll(/```(\w+)([^\n]*)\n([\s\S]*?)```/g)].map((match) => ({ language: match[1]!, info: match[2]!.trim(), code: match[3]! }));
const succeeding = blocks.filter((block) => block.language === 'sql' && block.info === '');
const failing = blocks.filter((block) => block.language === 'sql' && block.info === 'fails');
const program = blocks.find((block) => block.language === 'ts');

let standIn: LlmStandIn;
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });

/** A scratch directory that sees the repository's files as its own, so examples write their files there. */
function scratchDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'srag-doc-'));
  for (const entry of ['examples', 'node', 'app', 'core', 'openai-wire', 'records-sql', 'prompts', 'node_modules', 'package.json']) symlinkSync(join(repositoryRoot, entry), join(directory, entry));
  return directory;
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('docs/sql-functions.md', () => {
  it('has examples of every kind', () => {
    expect(succeeding.length).toBeGreaterThanOrEqual(8);
    expect(failing.length).toBeGreaterThanOrEqual(3);
    expect(program).toBeDefined();
  });

  it('runs every SQL example, in order, as written', async () => {
    const directory = scratchDirectory();
    writeFileSync(join(directory, 'examples.sql'), succeeding.map((block) => block.code).join('\n'));
    const run = await runSragInProcess(['run', 'examples.sql', '--db', 'doc.duckdb'], { cwd: directory, environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Amber Arch Hotel');
    expect(run.stdout).toMatch(/answer +│ sql +│ result\n[─┼]+\n11 +│ SELECT COUNT\(\*\) FROM hotels WHERE country = 'Spain'/);
    expect(readFileSync(join(directory, 'hotels.parquet')).subarray(0, 4).toString()).toBe('PAR1');
  });

  it('fails each counter-example with the error it quotes', async () => {
    const session = await openSqlSession(':memory:', { environment: environment(), progress: false });
    try {
      for (const block of failing) {
        const expected = /^-- error: (.+)$/m.exec(block.code)?.[1];
        expect(expected, block.code).toBeDefined();
        await expect(session.run(block.code), block.code).rejects.toThrow(expected!);
      }
    } finally {
      await session.close();
    }
  });

  it('runs the TypeScript example as a program', async () => {
    const directory = scratchDirectory();
    writeFileSync(join(directory, 'example.ts'), program!.code);
    const result = await runProcess(process.execPath, ['--import', 'tsx', 'example.ts'], { cwd: directory, env: { ...process.env, ...environment() } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Barcelona|Paris|Rome/);
    expect(result.stdout).toContain("model: 'gpt-4o-mini'");
  });
});
