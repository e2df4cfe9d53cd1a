// The script of the page `srag serve` hands out: serve-page/src/main.ts with what it imports (the
// chart library, core's coverage words) in one file for the browser, no CDN. `npm run build`
// writes it into the package (dist/serve-page.js); in a checkout the server builds it from the
// sources the first time the page asks for it (node/serve/page-script.ts).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./src/main.ts', import.meta.url));

/** Builds the page's script; `metafile` says what each input weighs in it. */
export async function buildPageScript() {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    // Browsers of the last few years; the page uses nothing newer.
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0].text, metafile: result.metafile };
}
