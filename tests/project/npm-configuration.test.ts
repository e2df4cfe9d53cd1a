import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../helpers/run-srag.ts';

const packageJson = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean>; engines?: { node?: string } };
const lockfile = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; engines?: { node?: string } | string[] }> };
const npmrc = readFileSync(join(repositoryRoot, '.npmrc'), 'utf8');

const packageName = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Whether a version satisfies one npm engines comparator set ("^22", ">=18.17 <19", "20.x", "*"). */
function satisfies(version: number[], range: string): boolean {
  return range.split('||').some((alternative) => alternative.trim().replace(/([<>=^~])\s+/g, '$1').split(/\s+/).filter(Boolean).every((comparator) => {
    const match = /^(\^|~|>=|>|<=|<|=)?v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(comparator);
    if (!match) return true;
    const [, operator = '', ...parts] = match;
    const bound = parts.map((part) => (part === undefined || part === 'x' || part === '*' ? undefined : Number(part)));
    if (bound[0] === undefined) return true;
    const floor = bound.map((part) => part ?? 0);
    const compare = floor.map((part, index) => Math.sign(version[index]! - part)).find((sign) => sign !== 0) ?? 0;
    if (operator === '>=') return compare >= 0;
    if (operator === '>') return compare > 0;
    if (operator === '<=') return compare <= 0;
    if (operator === '<') return compare < 0;
    if (operator === '^' || operator === '' || operator === '=') return compare >= 0 && version[0] === floor[0] && (operator === '^' || bound[1] === undefined || version[1] === floor[1]);
    return compare >= 0 && version[0] === floor[0] && version[1] === floor[1];
  }));
}

// npm 11 warns about every dependency install script that package.json's allowScripts does not
// decide (npm 12 will skip them), and about every package whose engines exclude the running Node.
// A new dependency must keep both quiet, or a fresh `npm install` warns again.
describe('npm configuration for a fresh install', () => {
  it('decides every dependency install script in allowScripts', () => {
    const withScripts = Object.entries(lockfile.packages).filter(([, entry]) => entry.hasInstallScript).map(([path]) => packageName(path));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(packageJson.allowScripts, `${name} has an install script`).toHaveProperty([name]);
  });

  it('installs only packages whose engines admit the oldest Node the project supports', () => {
    expect(packageJson.engines?.node).toBe('>=20.19');
    const oldest = [20, 19, 0];
    const excluding = Object.entries(lockfile.packages)
      .filter(([path, entry]) => path !== '' && !Array.isArray(entry.engines) && entry.engines?.node && !satisfies(oldest, entry.engines.node))
      .map(([path, entry]) => `${path} (node ${(entry.engines as { node: string }).node})`);
    expect(excluding).toEqual([]);
    expect([satisfies([20, 19, 0], '^22 || ^24 || >=26'), satisfies([20, 19, 0], '>= 18.17'), satisfies([20, 18, 0], '^20.19.0 || >=22'), satisfies([20, 19, 0], '~20.19.0')])
      .toEqual([false, true, false, true]);
  });

  it('skips the funding appeal', () => {
    expect(npmrc).toMatch(/^fund=false$/m);
  });

  it('keeps the tarball npm pack writes out of git', () => {
    const name = `srag-${(packageJson as { version?: string }).version}.tgz`;
    // `git check-ignore` exits 0 when the path is ignored, 1 when it is not.
    expect(spawnSync('git', ['check-ignore', '--quiet', '--no-index', name], { cwd: repositoryRoot }).status, name).toBe(0);
  });
});
