import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../helpers/run-srag.ts';

const packageJson = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean>; engines?: { node?: string } };
const lockfile = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
const npmrc = readFileSync(join(repositoryRoot, '.npmrc'), 'utf8');

// npm 11 warns about every dependency install script that package.json's allowScripts does not
// decide (npm 12 will skip them). A new dependency with one must be decided here, or a fresh
// `npm install` warns again.
describe('npm configuration for a fresh install', () => {
  it('decides every dependency install script in allowScripts', () => {
    const withScripts = Object.entries(lockfile.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(packageJson.allowScripts, `${name} has an install script`).toHaveProperty([name]);
  });

  it('refuses Node versions package.json excludes, and skips the funding appeal', () => {
    expect(packageJson.engines?.node).toBe('>=20');
    expect(npmrc).toMatch(/^engine-strict=true$/m);
    expect(npmrc).toMatch(/^fund=false$/m);
  });
});
