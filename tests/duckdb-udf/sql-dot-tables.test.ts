import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sqlCommand } from '../../node/cli/sql-command.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';

const directory = mkdtempSync(join(tmpdir(), 'srag-dot-tables-'));
const database = join(directory, 'tables.duckdb');
const sql = (command: string) => runCommandInProcess((signal) => sqlCommand({ db: database, command }, signal), { database });

describe('srag sql\'s .tables and .schema', () => {
  it('name a table outside the main schema as a SELECT finds it: srag_extract\'s records under srag_extract.', async () => {
    // The shell keeps its history in ~/.srag_history: not the real one.
    vi.stubEnv('HOME', directory);
    const created = await sql('CREATE SCHEMA IF NOT EXISTS srag_extract; CREATE TABLE srag_extract.hotels_ad6fc2af5324 AS SELECT 1 AS a; CREATE TABLE hotels AS SELECT 2 AS b');
    expect(created.status, created.stderr).toBe(0);
    const listed = await sql('.tables %hotels%');
    expect(listed.stdout.trim().split(/\s+/)).toEqual(['hotels', 'srag_extract.hotels_ad6fc2af5324']);
    const selected = await sql(listed.stdout.trim().split(/\s+/).map((name) => `SELECT count(*) AS n FROM ${name}`).join('; '));
    expect(selected.status, selected.stderr).toBe(0);
    expect((await sql('.schema srag_extract.hotels_ad6fc2af5324')).stdout).toBe('CREATE TABLE srag_extract.hotels_ad6fc2af5324(a INTEGER);\n');
    vi.unstubAllEnvs();
  });
});
