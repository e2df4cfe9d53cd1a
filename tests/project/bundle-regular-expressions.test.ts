import { expect, it } from 'vitest';
import { readCliBundle } from '../helpers/read-cli-bundle.ts';

// For a Node target esbuild writes a regular expression with \p{…} as `new RegExp("\\p{L}", "u")`,
// which makes the expression again at every evaluation (~0.15 µs and an object each time); the
// evidence check tests characters and words with such expressions for every value it checks.
it("keeps the CLI bundle's regular expressions with \\p{…} as literals, not a new RegExp at every evaluation", async () => {
  const code = await readCliBundle();
  // One the evidence check runs per character of a number's neighbours (core/extraction/quote-is-about-attribute.ts).
  expect(code.includes('/\\p{N}/u.test('), 'a \\p{N} literal in the bundle').toBe(true);
  expect(code.match(/new RegExp\("[^"]*\\\\p\{/g) ?? []).toEqual([]);
});
