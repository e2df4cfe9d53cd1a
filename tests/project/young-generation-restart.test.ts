import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript beside bin/srag.js, without declarations.
import { youngGenerationRestart } from '../../bin/young-generation.mjs';
import { runProcess } from '../helpers/run-process.ts';

type Restart = (options: { argv: string[]; execArgv: string[]; nodeOptions?: string; v8Version: string }) => string[] | undefined;
const restart = youngGenerationRestart as Restart;

// process.versions.v8 of Node 20.20.2, 22.23.5 and 24.22.3.
const v8 = { node20: '11.3.244.8-node.38', node22: '12.4.254.21-node.57', node24: '13.6.233.17-node.63' };
const argv = (...args: string[]) => ['/usr/bin/node', '/srv/srag/bin/srag.js', ...args];

describe('srag restarts its long commands with Node 20\'s young generation on V8 13 and later', () => {
  it('restarts ingest, sql, run, serve, mcp and eval on V8 13, with the flag first and the rest as they were', () => {
    expect(restart({ argv: argv('ingest', 'docs/*', '--schema', 's.json'), execArgv: ['--inspect'], v8Version: v8.node24 }))
      .toEqual(['/usr/bin/node', '--max-semi-space-size=16', '--inspect', '/srv/srag/bin/srag.js', 'ingest', 'docs/*', '--schema', 's.json']);
    for (const command of ['sql', 'run', 'serve', 'mcp', 'eval']) expect(restart({ argv: argv(command), execArgv: [], v8Version: v8.node24 })?.[1]).toBe('--max-semi-space-size=16');
  });

  it('leaves short commands, older V8s and a semi-space already set alone (so the second start runs as it is)', () => {
    for (const args of [['--version'], ['--help'], ['ask', 'how many?'], ['stats'], ['why', 'a.md', 'city'], []]) expect(restart({ argv: argv(...args), execArgv: [], v8Version: v8.node24 })).toBeUndefined();
    for (const v8Version of [v8.node20, v8.node22]) expect(restart({ argv: argv('ingest'), execArgv: [], v8Version })).toBeUndefined();
    expect(restart({ argv: argv('ingest'), execArgv: ['--max-semi-space-size=16'], v8Version: v8.node24 })).toBeUndefined();
    expect(restart({ argv: argv('ingest'), execArgv: [], nodeOptions: '--trace-warnings --max_semi_space_size=64', v8Version: v8.node24 })).toBeUndefined();
  });

  // Only where V8 is 13 or later and Node has process.execve (Node 24 here; CI runs Node 20).
  it.runIf(Number.parseInt(process.versions.v8, 10) >= 13 && typeof (process as { execve?: unknown }).execve === 'function')(
    'runs srag sql in the same process, started again with --max-semi-space-size=16, and leaves --version alone', async () => {
      const record = join(tmpdir(), `srag-young-generation-${process.pid}.json`);
      const preload = join(tmpdir(), `srag-young-generation-${process.pid}.cjs`);
      writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ pid: process.pid, execArgv: process.execArgv })));`);
      try {
        const bin = fileURLToPath(new URL('../../bin/srag.js', import.meta.url));
        let pid: number | undefined;
        const sql = await runProcess(process.execPath, ['--require', preload, bin, 'sql', '-c', 'SELECT 42 AS answer'], { onSpawn: (child) => { pid = child.pid; } });
        expect(sql.status, sql.stderr).toBe(0);
        expect(sql.stderr).toBe('');
        expect(sql.stdout).toContain('42');
        const ran = JSON.parse(readFileSync(record, 'utf8')) as { pid: number; execArgv: string[] };
        expect(ran.execArgv).toEqual(['--max-semi-space-size=16', '--require', preload]);
        expect(ran.pid).toBe(pid);
        const version = await runProcess(process.execPath, ['--require', preload, bin, '--version']);
        expect(version.status).toBe(0);
        expect((JSON.parse(readFileSync(record, 'utf8')) as { execArgv: string[] }).execArgv).toEqual(['--require', preload]);
      } finally {
        rmSync(record, { force: true });
        rmSync(preload, { force: true });
      }
    });
});
