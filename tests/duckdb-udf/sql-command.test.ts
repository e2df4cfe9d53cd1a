import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShellInput } from '../../node/cli/shell-input.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const directory = mkdtempSync(join(tmpdir(), 'srag-sql-'));
const database = join(directory, 'shell.duckdb');
// The shell keeps its history in ~/.srag_history: a test must not write the real one.
const environment = { HOME: directory };
const sql = (args: string[], input?: string) => runSragInProcess(['sql', '--db', database, ...args], { environment, input });

beforeAll(async () => {
  const created = await sql(['-c', "CREATE TABLE hotels AS SELECT 'Amber Arch Hotel' AS hotel_name, 470 AS price; CREATE VIEW cheap AS SELECT * FROM hotels WHERE price < 100"]);
  expect(created.status, created.stderr).toBe(0);
});

describe('srag sql with -c or statements on stdin', () => {
  it('prints the result of every statement in order, and nothing for DDL, INSERT and COPY, as the DuckDB CLI does', async () => {
    const run = await sql(['-c', `CREATE TABLE scratch (n INTEGER); INSERT INTO scratch VALUES (1), (2); SELECT 1 AS first;
      COPY scratch TO '${join(directory, 'scratch.csv')}'; SELECT count(*) AS second FROM scratch; DROP TABLE scratch`]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('first\n─────\n1\n(1 row)\n\nsecond\n──────\n2\n(1 row)\n');
  });

  it('prints one JSON line per statement that returns rows, and runs a last statement without its semicolon', async () => {
    const run = await sql(['--json'], 'SELECT 1 AS a; CREATE TEMP TABLE t (a INTEGER);\nSELECT 2 AS b');
    expect(run.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([{ columns: ['a'], rows: [[1]] }, { columns: ['b'], rows: [[2]] }]);
  });

  it('stops at the first failing statement with one line, after printing the results before it', async () => {
    const run = await sql(['-c', 'SELECT 1 AS before; SELECT no_such_column FROM hotels; SELECT 3 AS after']);
    expect(run.status).toBe(5);
    expect(run.stdout).toContain('before');
    expect(run.stdout).not.toContain('after');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^srag: .*no_such_column/);
  });

  it('runs a dot command: .tables lists tables and views, .schema prints their CREATE statements', async () => {
    const tables = await sql(['-c', '.tables']);
    expect(tables.status, tables.stderr).toBe(0);
    expect(tables.stdout.split(/\s+/)).toEqual(expect.arrayContaining(['hotels', 'cheap', 'srag_cache']));
    // The same commands from stdin, the last one failing.
    const run = await sql([], '.tables ch%\n.schema hotels\n.schema nothing\n');
    expect(run.stdout).toBe('cheap\nCREATE TABLE hotels(hotel_name VARCHAR, price INTEGER);\n');
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('srag: no table or view named "nothing" — .tables lists them\n');
  });

  it('runs SQL given as the argument, as the DuckDB CLI does, and refuses SQL given twice', async () => {
    const run = await sql(['SELECT price FROM hotels; SELECT 2 AS b']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('price\n─────\n470\n(1 row)\n\nb\n─\n2\n(1 row)\n');
    const dot = await sql(['.tables ch%']);
    expect(dot.stdout).toBe('cheap\n');
    const twice = await sql(['SELECT 1', '-c', 'SELECT 2']);
    expect(twice.status).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toBe('srag: srag sql: SQL given twice, as an argument and with -c — pass it one way: srag sql "SELECT 1" or srag sql -c "SELECT 1"\n');
  });

  it('names an unknown dot command and where the list is', async () => {
    const run = await sql(['-c', '.tabels']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('srag: unknown command .tabels — .help lists the commands: .tables, .schema, .help, .quit\n');
  });
});

describe('srag sql reading stdin', () => {
  it('runs statements and dot commands like a script, and stops at .quit', async () => {
    const run = await sql([], ".tables cheap\nSELECT hotel_name\n  FROM hotels; -- a comment; not a statement\nSELECT 'a;b' AS text;\n.quit\nSELECT 'never' AS text;\n");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('cheap\nhotel_name\n────────────────\nAmber Arch Hotel\n(1 row)\n\ntext\n────\na;b\n(1 row)\n');
  });
});

describe('srag sql on a terminal', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;

  it.skipIf(!hasScript)('answers .tables, reads a statement over two lines, and leaves on .quit', async () => {
    // `script` gives the CLI a pseudo-terminal, so it opens the interactive shell.
    const child = spawn('script', ['-qec', `"${process.execPath}" bin/srag.js sql --db "${database}"`, '/dev/null'], {
      cwd: repositoryRoot, env: { ...process.env, ...environment }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    const waitFor = async (pattern: RegExp) => {
      for (let attempt = 0; attempt < 600 && !pattern.test(output); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toMatch(pattern);
    };
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor(/srag> /);
    child.stdin.write('.tables\n');
    await waitFor(/srag_ingestion_log/);
    child.stdin.write('SELECT price\n');
    await waitFor(/\.\.\.> /);
    child.stdin.write('  FROM hotels;\n');
    await waitFor(/470/);
    // stdin stays open: only .quit can end the shell here.
    child.stdin.write('.quit\n');
    expect(await exited).toBe(0);
    child.stdin.end();
  });
});

describe('ShellInput', () => {
  it('ends a statement only at a semicolon outside strings, quoted names and comments', () => {
    const input = new ShellInput();
    expect(input.push("SELECT 'a;")).toEqual([]);
    expect(input.push("b' AS \"x;y\" -- c;")).toEqual([]);
    expect(input.pending).toBe(true);
    expect(input.push('/* ; */ ;')).toEqual([expect.objectContaining({ type: 'sql', statements: ["SELECT 'a;\nb' AS \"x;y\" -- c;\n/* ; */"] })]);
    expect(input.pending).toBe(false);
  });

  it('reads a dot command only at a statement boundary', () => {
    const input = new ShellInput();
    expect(input.push('.schema hotels')).toEqual([{ type: 'dot', command: '.schema', argument: 'hotels', text: '.schema hotels' }]);
    expect(input.push('SELECT 1')).toEqual([]);
    expect(input.push('.5 AS x;')).toEqual([expect.objectContaining({ type: 'sql', statements: ['SELECT 1\n.5 AS x'] })]);
  });

  it('splits several statements on one line, and drops comment-only input', () => {
    const input = new ShellInput();
    expect(input.push('-- just a comment')).toEqual([]);
    expect(input.pending).toBe(false);
    expect(input.push('SELECT 1; SELECT 2;')).toEqual([expect.objectContaining({ statements: ['SELECT 1', 'SELECT 2'] })]);
  });
});
