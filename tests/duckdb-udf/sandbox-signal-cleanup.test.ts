import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 42, item 10: SIGTERM during `srag ask` left `srag-sandbox-*/…/table-0.parquet` (a copy of the
// table) in the temporary directory; SIGINT cleaned up. A real process runs a long sandbox query
// (tests/duckdb-udf/fixtures/sandbox-query-until-signal.ts) and is sent the signal once the file is there.

const fixture = fileURLToPath(new URL('./fixtures/sandbox-query-until-signal.ts', import.meta.url));

function sandboxDirectories(directory: string): string[] {
  return readdirSync(directory).filter((name) => name.startsWith('srag-sandbox-'));
}

async function endDuringQuery(signal: NodeJS.Signals): Promise<{ exitSignal: NodeJS.Signals | null; left: string[] }> {
  const temporary = mkdtempSync(join(tmpdir(), 'srag-signal-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...process.env, TMPDIR: temporary }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_status, exitSignal) => resolve(exitSignal)));
    // A wait for a state, not a timing: the table's file appears once the query is under way.
    // (in the sandbox process's directory, under the request's own name).
    const tableFile = () => sandboxDirectories(temporary).some((name) =>
      readdirSync(join(temporary, name), { recursive: true }).some((file) => String(file).endsWith('table-0.parquet')));
    for (let waited = 0; !tableFile(); waited += 50) {
      if (child.exitCode !== null || waited > 120_000) throw new Error(`the fixture never started its query: ${output}`);
      await wait(50);
    }
    child.kill(signal);
    const exitSignal = await closed;
    return { exitSignal, left: sandboxDirectories(temporary) };
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

describe('the sandbox\'s temporary files', () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`are removed when ${signal} ends the process during a query, which still ends by the signal`, async () => {
      const { exitSignal, left } = await endDuringQuery(signal);
      expect(left).toEqual([]);
      expect(exitSignal).toBe(signal);
    });
  }
});
