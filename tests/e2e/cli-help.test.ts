import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../node/cli/main.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// `srag --help` and a command's usage errors, through the CLI's own argument parsing, in-process.

const srag = (...args: string[]) => runCommandInProcess(() => main(['node', 'srag', ...args]));
const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');

/** Every environment variable srag reads, found in its sources as they read them. */
function variablesRead(): string[] {
  const found = new Set<string>();
  for (const folder of ['node', 'openai-wire']) {
    for (const file of readdirSync(join(repositoryRoot, folder), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(join(repositoryRoot, folder, file), 'utf8');
      for (const match of source.matchAll(/(?:environment|env)\.((?:SRAG|OPENAI|AZURE_OPENAI)_[A-Z_]+)|'((?:SRAG|OPENAI|AZURE_OPENAI)_[A-Z_]+)'/g)) found.add(match[1] ?? match[2]!);
    }
  }
  return [...found].sort();
}

describe('srag --help', () => {
  it('names every environment variable srag reads, as the README\'s table of variables does', async () => {
    const variables = variablesRead();
    expect(variables).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'SRAG_EMBEDDING_MODEL', 'SRAG_MAX_REPLY_BYTES', 'SRAG_SERVE_TOKEN']));
    const help = await srag('--help');
    expect(help.status).toBe(0);
    const environment = help.stdout.slice(help.stdout.indexOf('\nEnvironment:\n'));
    for (const variable of variables) {
      expect(environment, variable).toMatch(new RegExp(`^  ${variable} `, 'm'));
      expect(readme, variable).toContain(`| \`${variable}\` |`);
    }
  });

  it('says what to do without a model: a local one or a key with a budget, and in a clone the offline demo', async () => {
    const help = (await srag('--help')).stdout;
    expect(help).toContain('OPENAI_BASE_URL=http://localhost:11434/v1');
    expect(help).toContain('--max-cost 0.50');
    // The installed package has no demo: tests/project/installed-package.test.ts checks its help leaves it out.
    expect(help).toContain('run npm run demo in this repository');
  });

  it('lists the fields of srag ask --json as the README\'s command reference does', async () => {
    const help = (await srag('ask', '--help')).stdout;
    const fields = (text: string) => /print \{([^}]+)\}/.exec(text)?.[1] ?? /`--json` prints `\{([^}]+)\}` per line/.exec(text)?.[1];
    expect(fields(help.replace(/\s+/g, ' '))).toBe(fields(readme));
    expect(fields(help.replace(/\s+/g, ' '))).toContain('cut?');
  });
});

describe('a usage error', () => {
  it('points at the help of the command it was made in, and exits 2', async () => {
    const missing = await srag('ask');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe("error: missing required argument 'questions'\n(run srag ask --help for usage)\n");
    const unknown = await srag('nonsense');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe("error: unknown command 'nonsense'\n(run srag --help for usage)\n");
  });
});
