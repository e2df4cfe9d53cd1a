import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './run-srag.ts';
import { runProcess } from './run-process.ts';

export interface InstalledPackage {
  /** The project the tarball was installed into (a temporary directory outside the repository). */
  project: string;
  /** The installed `srag` command (node_modules/.bin/srag). */
  command: string;
  tarball: string;
}

/** What packing needs of the repository: the build's inputs and what the package ships. */
const leftOut = new Set(['.git', 'node_modules', 'dist', 'tests', 'examples', 'bench', 'docs', 'sheets-addon', 'demo-output', '.tmp', 'test-artifacts']);

/**
 * `npm pack` a copy of the repository (which runs `npm run build` there: nothing is written into
 * the working tree while other tests read it), then `npm install` the tarball into a
 * fresh project in a temporary directory, as a user would. `--prefer-offline`: after `npm ci`
 * npm's cache holds every dependency, so the registry is asked only for what the cache lacks.
 */
export async function installPackedPackage(): Promise<InstalledPackage> {
  const directory = mkdtempSync(join(tmpdir(), 'srag-package-'));
  const npm = (args: string[], cwd: string) => runProcess('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });
  const source = join(directory, 'source');
  mkdirSync(source);
  for (const entry of readdirSync(repositoryRoot)) {
    if (!leftOut.has(entry) && !entry.endsWith('.duckdb')) cpSync(join(repositoryRoot, entry), join(source, entry), { recursive: true });
  }
  symlinkSync(join(repositoryRoot, 'node_modules'), join(source, 'node_modules'), 'dir');
  const pack = await npm(['pack', '--pack-destination', directory], source);
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const tarball = join(directory, readdirSync(directory).find((name) => name.endsWith('.tgz'))!);
  const project = join(directory, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'srag-user-project', private: true, type: 'module' }));
  const install = await npm(['install', '--prefer-offline', tarball], project);
  if (install.status !== 0) throw new Error(`npm install of ${tarball} failed: ${install.stderr}`);
  return { project, command: join(project, 'node_modules', '.bin', 'srag'), tarball };
}
