import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDemoOverForAnotherModel } from '../../examples/start-demo-over.ts';

describe('the demo\'s database', () => {
  it('is started over when a real endpoint follows the offline stand-in, so the stand-in\'s records are never shown as the model\'s', () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-demo-'));
    const files = [join(directory, 'hotels.duckdb'), join(directory, 'hotels.schema.json')];
    const run = (madeBy: string) => startDemoOverForAnotherModel({ directory, files, madeBy });
    expect(run('the offline LLM stand-in')).toBeUndefined();
    for (const file of files) writeFileSync(file, 'made offline');
    // The offline demo again keeps its database; a real endpoint does not.
    expect(run('the offline LLM stand-in')).toBeUndefined();
    expect(files.every((file) => existsSync(file))).toBe(true);
    expect(run('https://api.openai.com/v1 with model gpt-5-mini')).toEqual({ previous: 'the offline LLM stand-in', now: 'https://api.openai.com/v1 with model gpt-5-mini' });
    expect(files.some((file) => existsSync(file))).toBe(false);
    for (const file of files) writeFileSync(file, 'made by gpt-5-mini');
    expect(run('https://api.openai.com/v1 with model gpt-4o-mini')).toMatchObject({ previous: 'https://api.openai.com/v1 with model gpt-5-mini' });
  });
});
