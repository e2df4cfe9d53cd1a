import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { readyBundle } from '../../node/runtime/workers/ready-bundle.mjs';
import { prepareWorkerBundle } from '../../node/runtime/workers/worker-bundle.ts';

// For a Node target esbuild writes a regular expression with \p{…} as `new RegExp("\\p{L}", "u")`,
// which makes the expression again at every evaluation (~0.15 µs and an object each time); the
// evidence check tests characters and words with such expressions for every value it checks.
it("keeps the CLI bundle's regular expressions with \\p{…} as literals, not a new RegExp at every evaluation", async () => {
  const main = new URL('../../node/cli/main.ts', import.meta.url);
  await prepareWorkerBundle(main, { packages: 'external' });
  const bundle = readyBundle(main);
  expect(bundle).toBeDefined();
  const directory = dirname(fileURLToPath(bundle!));
  const code = readdirSync(directory).filter((name) => name.endsWith('.mjs')).map((name) => readFileSync(`${directory}/${name}`, 'utf8')).join('\n');
  // One the evidence check runs per character of a number's neighbours (core/extraction/quote-is-about-attribute.ts).
  expect(code.includes('/\\p{N}/u.test('), 'a \\p{N} literal in the bundle').toBe(true);
  expect(code.match(/new RegExp\("[^"]*\\\\p\{/g) ?? []).toEqual([]);
});
