import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository } from '../helpers/copy-repository.ts';
import { runProcess } from '../helpers/run-process.ts';

// bin/srag.js in a clone runs a bundle of the CLI's sources when one was built from them as they
// are, and the sources themselves (through tsx) once one changed, building a new bundle for the
// next start. A copy of the repository, with a bundle cache of its own, so the test may edit it.
let copy: string;
let readyBundle: (moduleUrl: URL) => URL | undefined;
let mainSource: URL;

beforeAll(async () => {
  copy = copyRepository('srag-cli-bundle-');
  mainSource = pathToFileURL(join(copy, 'node/cli/main.ts'));
  ({ readyBundle } = await import(pathToFileURL(join(copy, 'node/runtime/workers/ready-bundle.mjs')).href) as { readyBundle: typeof readyBundle });
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const srag = async (...args: string[]) => {
  const run = await runProcess(process.execPath, [join(copy, 'bin/srag.js'), ...args], { cwd: copy });
  expect(run.status, run.stderr).toBe(0);
  return run;
};

describe("a clone's srag command", () => {
  it('runs the bundle of its sources, and the sources themselves once one changed, then their new bundle', async () => {
    expect(readyBundle(mainSource)).toBeUndefined();
    expect((await srag('--version')).stdout).toBe('0.1.0\n');
    // Built meanwhile, from the copy's own files, into the copy's cache.
    const first = readyBundle(mainSource);
    expect(first && fileURLToPath(first).startsWith(join(copy, 'node_modules', '.cache', 'srag'))).toBe(true);

    // A mark in the bundle itself (not one of its sources): shown only when the bundle runs.
    writeFileSync(first!, `${readFileSync(first!, 'utf8')}\nprocess.stderr.write('ran the bundle\\n');\n`);
    const bundled = await srag('--version');
    expect([bundled.stdout, bundled.stderr]).toEqual(['0.1.0\n', 'ran the bundle\n']);

    // An edit (the version, as long as before) takes effect at once, without the stale bundle.
    const manifest = join(copy, 'package.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"version": "0.1.0"', '"version": "0.9.9"'));
    expect(readyBundle(mainSource)).toBeUndefined();
    const edited = await srag('--version');
    expect([edited.stdout, edited.stderr]).toEqual(['0.9.9\n', '']);
    const second = readyBundle(mainSource);
    expect(second).toBeDefined();
    expect(second!.href).not.toBe(first!.href);
    expect([(await srag('--version')).stdout]).toEqual(['0.9.9\n']);
  });
});
