import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultModelPrices, SragError } from '../../core/index.ts';
import { loadModelPrices } from '../../node/runtime/load-model-prices.ts';
import { caught } from '../helpers/caught.ts';

const directory = mkdtempSync(join(tmpdir(), 'srag-prices-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function pricesFile(name: string, text: string): string {
  const file = join(directory, name);
  writeFileSync(file, text);
  return file;
}

describe('loadModelPrices', () => {
  it('lays the entries of the SRAG_PRICES file over the built-in prices', () => {
    const file = pricesFile('house.json', '{"house-model": {"input": 0.2, "output": 0.8}, "gpt-4o-mini": {"input": 1, "cached_input": 0.5, "output": 2}}');
    const prices = loadModelPrices({ SRAG_PRICES: file });
    expect(prices['house-model']).toEqual({ input: 0.2, cachedInput: 0.2, output: 0.8 });
    expect(prices['gpt-4o-mini']).toEqual({ input: 1, cachedInput: 0.5, output: 2 });
    expect(prices['gpt-4o']).toEqual(defaultModelPrices['gpt-4o']);
  });

  it('refuses a malformed file in one line naming the file, the variable and the fix', async () => {
    const file = pricesFile('trailing-comma.json', '{"gpt-4o-mini": {"input": 0.15, "output": 0.6,}}');
    const error = await caught(Promise.resolve().then(() => loadModelPrices({ SRAG_PRICES: file })));
    expect(SragError.isInstance(error) && error.code).toBe('INPUT_INVALID');
    const { message, hint } = error as SragError;
    expect(message).toMatch(new RegExp(`^the prices file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(SRAG_PRICES\\) is not JSON \\(`));
    expect(hint).toBe('fix the prices file, or unset SRAG_PRICES for the built-in prices');
    expect(`${message} — ${hint}`).not.toMatch(/\n/);
  });

  it('names SRAG_PRICES when the file it points at is missing', async () => {
    const error = await caught(Promise.resolve().then(() => loadModelPrices({ SRAG_PRICES: join(directory, 'missing.json') })));
    expect((error as SragError).message).toBe(`SRAG_PRICES names ${join(directory, 'missing.json')}, which cannot be read (ENOENT)`);
  });
});
