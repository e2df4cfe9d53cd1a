import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.ts';

// bin/srag.js turns on Node's module compile cache where Node has one (22.1 and later; CI runs
// Node 20, where only the last test runs). Its default directory is os.tmpdir()/node-compile-cache.

const bin = fileURLToPath(new URL('../../bin/srag.js', import.meta.url));
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** `srag …` with TMPDIR a fresh directory and no compile cache settings of the machine's; what the run left there. */
async function runWithFreshTemporary(args: string[], extra: Record<string, string> = {}): Promise<{ status: number | null; stderr: string; left: string[]; temporary: string }> {
  const temporary = mkdtempSync(join(tmpdir(), 'srag-compile-cache-'));
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('NODE_COMPILE_CACHE') && name !== 'NODE_DISABLE_COMPILE_CACHE') environment[name] = value;
  }
  const run = await runProcess(process.execPath, [bin, ...args], { env: { ...environment, TMPDIR: temporary, ...extra } });
  return { status: run.status, stderr: run.stderr, left: readdirSync(temporary), temporary };
}

describe('Node\'s module compile cache', () => {
  it.runIf(hasCompileCache)('is kept in the temporary directory, so the next start compiles less', async () => {
    const { status, stderr, left, temporary } = await runWithFreshTemporary(['--help']);
    try {
      expect(status, stderr).toBe(0);
      expect(left).toEqual(['node-compile-cache']);
      // A directory per Node version, holding the compiled code of the modules loaded.
      const [version] = readdirSync(join(temporary, 'node-compile-cache'));
      expect(readdirSync(join(temporary, 'node-compile-cache', version!)).length).toBeGreaterThan(0);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
    // Node's own switch turns it off.
    const disabled = await runWithFreshTemporary(['--help'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    rmSync(disabled.temporary, { recursive: true, force: true });
    expect(disabled.status).toBe(0);
    expect(disabled.left).toEqual([]);
  });

  it.runIf(!hasCompileCache)('writes nothing where Node has none (Node 20)', async () => {
    const { status, left, temporary } = await runWithFreshTemporary(['--version']);
    rmSync(temporary, { recursive: true, force: true });
    expect(status).toBe(0);
    expect(left).toEqual([]);
    expect(existsSync(join(temporary, 'node-compile-cache'))).toBe(false);
  });
});
