import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readyBundle } from '../../node/runtime/workers/ready-bundle.mjs';
import { prepareWorkerBundle } from '../../node/runtime/workers/worker-bundle.ts';

/** The code of the CLI's bundle as bin/srag.js builds and runs it in a checkout: all of its files, joined. */
export async function readCliBundle(): Promise<string> {
  const main = new URL('../../node/cli/main.ts', import.meta.url);
  await prepareWorkerBundle(main, { packages: 'external' });
  const bundle = readyBundle(main);
  if (!bundle) throw new Error('no bundle of the CLI was built');
  const directory = dirname(fileURLToPath(bundle));
  return readdirSync(directory).filter((name) => name.endsWith('.mjs')).map((name) => readFileSync(`${directory}/${name}`, 'utf8')).join('\n');
}
