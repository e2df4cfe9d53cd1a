// Whether a cached bundle of a TypeScript module is ready for its sources as they are now: shared
// by worker-bundle.ts (srag's worker threads) and bin/srag.js (the CLI of a checkout), which checks
// before any TypeScript can be loaded, so this file is plain JavaScript (types: ready-bundle.d.mts).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Bundles live beside the packages they import (`@duckdb/node-api` among them), so that their
 * imports resolve as the sources' do. The installed package runs dist/ (see
 * build/build-package.mjs) and never bundles at run time.
 */
export const bundleCacheDirectory = fileURLToPath(new URL('../../../node_modules/.cache/srag/', import.meta.url));

/** Where the manifest of `moduleUrl`'s bundle is kept: what it was built from, and where it is. */
export function bundleManifestFile(moduleUrl) {
  const source = fileURLToPath(moduleUrl);
  return join(bundleCacheDirectory, `${basename(source)}-${createHash('sha256').update(source).digest('hex').slice(0, 12)}.json`);
}

export function hashFile(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * The bundle of the TypeScript module `moduleUrl`, if one was built from exactly the files it
 * would be built from now; undefined otherwise. An input whose size and modification time are
 * unchanged is taken as unchanged; otherwise its content hash decides.
 */
export function readyBundle(moduleUrl) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(bundleManifestFile(moduleUrl), 'utf8'));
  } catch {
    return undefined;
  }
  for (const [path, recorded] of Object.entries(manifest.inputs)) {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return undefined;
    if (info.size === recorded.size && info.mtimeMs === recorded.modified) continue;
    if (info.size !== recorded.size || hashFile(path) !== recorded.hash) return undefined;
  }
  const bundle = join(bundleCacheDirectory, manifest.bundle);
  return statSync(bundle, { throwIfNoEntry: false }) ? pathToFileURL(bundle) : undefined;
}
