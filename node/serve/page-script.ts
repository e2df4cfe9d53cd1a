import { readFile } from 'node:fs/promises';

/**
 * The page's script: in the package, the file `npm run build` wrote (the build rewrites this URL
 * to it); in a checkout, the TypeScript entry, built with esbuild (a development dependency) the
 * first time the page is asked for, then kept for the life of the process.
 */
const pageEntry = new URL('../../serve-page/src/main.ts', import.meta.url);
/** Imported by URL, so that the package's build neither follows nor ships it. */
const pageBuilder = new URL('../../serve-page/build-page.mjs', import.meta.url);

let script: Promise<string> | undefined;

export function pageScript(): Promise<string> {
  script ??= /\.ts$/.test(pageEntry.pathname)
    ? (import(pageBuilder.href) as Promise<typeof import('../../serve-page/build-page.mjs')>).then(async ({ buildPageScript }) => (await buildPageScript()).text)
    : readFile(pageEntry, 'utf8');
  // A failed build is tried again by the next request rather than kept.
  script.catch(() => { script = undefined; });
  return script;
}
