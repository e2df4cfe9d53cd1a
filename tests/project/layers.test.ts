import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../helpers/run-srag.ts';

// Issue 38: each layer imports only downward — core ← app, openai-wire, records-sql ← node/runtime
// ← node/duckdb ← node/session ← the edges — and an edge does not reach into another edge's files,
// except the CLI starting the others (srag serve, srag mcp, srag sql / srag run). MCP imports only
// the package's entry; the web page only types, as its bundle runs in a browser.

type Layer = 'core' | 'app' | 'openai-wire' | 'records-sql' | 'sheets-addon' | 'serve-page'
  | 'node/runtime' | 'node/duckdb' | 'node/session' | 'node/sql-functions' | 'node/cli' | 'node/serve' | 'node/mcp' | 'node/index';

const domain: Layer[] = ['core', 'app', 'openai-wire'];
const belowSession: Layer[] = [...domain, 'node/runtime', 'node/duckdb', 'node/session'];
const allowed: Record<Layer, Layer[]> = {
  core: [],
  'openai-wire': ['core'],
  'records-sql': ['core'],
  app: ['core'],
  'node/runtime': domain,
  'node/duckdb': [...domain, 'node/runtime'],
  'node/session': [...domain, 'node/runtime', 'node/duckdb'],
  'node/sql-functions': belowSession,
  'node/serve': [...belowSession, 'serve-page'],
  'node/mcp': ['node/index'],
  'node/cli': [...belowSession, 'node/serve', 'node/mcp', 'node/sql-functions'],
  'node/index': [...belowSession, 'node/sql-functions'],
  'sheets-addon': ['core', 'app', 'openai-wire', 'records-sql'],
  // core is runtime-agnostic: the page's bundle words coverage with core's own describeCoverage.
  'serve-page': ['core'],
};

function layerOf(path: string): Layer | undefined {
  const inRepository = relative(repositoryRoot, path).replace(/\\/g, '/');
  if (inRepository === 'node/index.ts') return 'node/index';
  const node = /^node\/(runtime|duckdb|session|sql-functions|cli|serve|mcp)\//.exec(inRepository);
  if (node) return `node/${node[1]}` as Layer;
  return /^(core|app|openai-wire|records-sql|sheets-addon|serve-page)\//.exec(inRepository)?.[1] as Layer | undefined;
}

/** Every relative module a source file names, with whether it names types only (`import type`). */
function relativeImports(source: string): Array<{ specifier: string; typeOnly: boolean }> {
  const found = [...source.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s+['"](\.[^'"]+)['"]|new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/gm)];
  return found.map((match) => ({ specifier: (match[3] ?? match[4] ?? match[5] ?? match[6])!, typeOnly: match[2] !== undefined }));
}

function sourceFiles(): string[] {
  const tops = ['core', 'app', 'openai-wire', 'records-sql', 'sheets-addon', 'serve-page', 'node'];
  return tops.flatMap((top) => readdirSync(join(repositoryRoot, top), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mts|mjs)$/.test(file) && !file.endsWith('.d.ts') && !file.split(/[\\/]/).some((part) => part === 'node_modules' || part === 'dist'))
    .map((file) => join(repositoryRoot, top, file)));
}

describe('the layers of the tree', () => {
  it('import only downward, edges apart from each other but the CLI starting them, the page core and types', () => {
    const broken: string[] = [];
    let crossings = 0;
    for (const file of sourceFiles()) {
      const from = layerOf(file);
      if (!from) continue;
      for (const { specifier, typeOnly } of relativeImports(readFileSync(file, 'utf8'))) {
        const to = layerOf(resolve(dirname(file), specifier));
        if (!to || to === from) continue;
        crossings += 1;
        if (from === 'serve-page' && typeOnly) continue;
        if (!allowed[from].includes(to)) broken.push(`${relative(repositoryRoot, file)} (${from}) imports ${specifier} (${to})`);
      }
    }
    expect(crossings).toBeGreaterThan(300);
    expect(broken).toEqual([]);
  });

  it('reads every way a file names another, so the rule above cannot pass by missing one', () => {
    const source = "import { a } from '../a.ts';\nimport type { B } from \"../b.ts\";\nexport { c } from '../c.ts';\nconst d = await import('../d.ts');\nimport '../e.ts';\nconst f = new URL('../f.mjs', import.meta.url);\n";
    expect(relativeImports(source)).toEqual([
      { specifier: '../a.ts', typeOnly: false }, { specifier: '../b.ts', typeOnly: true }, { specifier: '../c.ts', typeOnly: false },
      { specifier: '../d.ts', typeOnly: false }, { specifier: '../e.ts', typeOnly: false }, { specifier: '../f.mjs', typeOnly: false },
    ]);
  });
});
