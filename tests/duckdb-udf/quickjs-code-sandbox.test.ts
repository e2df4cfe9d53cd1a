import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxCallResult } from '../../core/index.ts';
import { QuickJsCodeSandbox } from '../../node/runtime/code-sandbox/quickjs-code-sandbox.ts';

// Small bounds keep the file quick; the defaults are a second and 32 MiB.
const sandbox = new QuickJsCodeSandbox({ timeMs: 1_000, memoryBytes: 8 * 1024 * 1024, stackBytes: 128 * 1024, outputCharacters: 1_000 }, 300);
afterAll(() => sandbox.close());

async function run(source: string, text = 'Rooms: 1,234'): Promise<SandboxCallResult> {
  const [result] = await sandbox.runFunctions([{ id: `f${Math.random()}`, source }], text);
  return result!;
}

function failureOf(result: SandboxCallResult) {
  if (!('failure' in result)) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result.failure;
}

describe('the QuickJS code sandbox', () => {
  it('calls a generated function on the text and copies its value out as JSON', async () => {
    const result = await run('function (text) { const match = /Rooms: ([\\d,]+)/.exec(text); return match ? { value: match[1], quote: match[0] } : null; }');
    expect(result).toEqual({ value: { value: '1,234', quote: 'Rooms: 1,234' } });
    expect(await run('(text) => undefined')).toEqual({ value: null });
  });

  it('offers no process, require, module import, file system or network to the code', async () => {
    const probe = await run(`function () {
      const names = ['process', 'require', 'module', 'Buffer', 'fetch', 'XMLHttpRequest', 'WebSocket', 'std', 'os', 'Deno', 'Bun'];
      const found = names.filter((name) => typeof globalThis[name] !== 'undefined');
      const viaFunction = Function('return typeof process')();
      const viaConstructor = typeof (() => 0).constructor.constructor('return this')().process;
      return { found, viaFunction, viaConstructor };
    }`);
    expect(probe).toEqual({ value: { found: [], viaFunction: 'undefined', viaConstructor: 'undefined' } });
    expect(failureOf(await run('function () { return require("node:fs").readFileSync("/etc/passwd", "utf8"); }'))).toMatchObject({ kind: 'thrown', message: expect.stringContaining('require') });
    expect(failureOf(await run('function () { return process.exit(1); }'))).toMatchObject({ kind: 'thrown', message: expect.stringContaining('process') });
    expect(failureOf(await run('function () { return fetch("http://127.0.0.1:1/"); }'))).toMatchObject({ kind: 'thrown', message: expect.stringContaining('fetch') });
    // A dynamic import finds no module loader: the promise it returns is never a module.
    expect(await run('function () { const pending = import("node:fs"); return typeof pending.then; }')).toEqual({ value: 'function' });
    expect(process.exitCode ?? 0).toBe(0);
  });

  it('gives every call a realm of its own: a function counting its calls in a closure, a global or a prototype sees one call each time', async () => {
    // Issue 42: kept per function, the runtime let an extractor agree on the 8 checked documents and read other values after them.
    const counter = {
      id: 'counter',
      source: '(() => { let calls = 0; return function (text) { calls += 1; globalThis.seen = (globalThis.seen || 0) + 1; Object.prototype.marked = (Object.prototype.marked || 0) + 1; return [calls, globalThis.seen, ({}).marked]; }; })()',
    };
    const reader = { id: 'reader', source: '() => [typeof globalThis.seen, typeof ({}).marked]' };
    for (let document = 0; document < 3; document += 1) {
      expect(await sandbox.runFunctions([counter, reader, counter], `document ${document}`)).toEqual([{ value: [1, 1, 1] }, { value: ['undefined', 'undefined'] }, { value: [1, 1, 1] }]);
    }
  });

  it('stops an extractor pushing arrays or strings at the memory limit, which QuickJS alone did not hold', async () => {
    // Before the WebAssembly memory was bounded, the first grew it to its 2 GiB maximum and the second past 600 MB, each until the time limit.
    // A time limit the memory limit comes well before, however busy the machine.
    const patient = new QuickJsCodeSandbox({ timeMs: 10_000, memoryBytes: 8 * 1024 * 1024, stackBytes: 128 * 1024, outputCharacters: 1_000 });
    try {
      for (const source of ['function (text) { const all = []; for (;;) all.push(new Array(100000).fill(text)); }', 'function (text) { const all = []; for (let i = 0; ; i += 1) all.push(text + i); }']) {
        const [result] = await patient.runFunctions([{ id: 'pushing', source }], 'a line of text '.repeat(40));
        expect(failureOf(result!)).toEqual({ kind: 'memory-limit', message: 'stopped at 8 MiB (the memory limit)' });
      }
      expect(await patient.runFunctions([{ id: 'fine', source: '(text) => text.length' }], 'still works')).toEqual([{ value: 11 }]);
    } finally {
      await patient.close();
    }
  });

  it('stops an endless loop at the time limit and runs the next function', async () => {
    const results = await sandbox.runFunctions([
      { id: 'loop', source: 'function () { for (;;) {} }' },
      { id: 'fine', source: '(text) => text.length' },
    ], 'abc');
    expect(failureOf(results[0]!)).toEqual({ kind: 'time-limit', message: 'stopped after 1000 ms (the time limit per call)' });
    expect(results[1]).toEqual({ value: 3 });
  });

  it('stops a memory bomb and endless recursion at their limits', async () => {
    expect(failureOf(await run('function () { let text = "ab"; for (;;) { text = text + text; text.charCodeAt(text.length - 1); } }'))).toMatchObject({ kind: 'memory-limit', message: expect.stringContaining('memory limit') });
    expect(failureOf(await run('function () { return new Array(1e8).fill(0).length; }'))).toMatchObject({ kind: 'memory-limit', message: 'stopped at 8 MiB (the memory limit)' });
    // Typed arrays would allocate beside the heap limit; the sandbox has none.
    expect(failureOf(await run('function () { return new Uint8Array(1e6).length; }'))).toMatchObject({ kind: 'thrown', message: expect.stringContaining('Uint8Array') });
    expect(failureOf(await run('function again(text) { return again(text) + 1; }'))).toMatchObject({ kind: 'memory-limit', message: expect.stringContaining('stack limit') });
    expect(await run('(text) => text.toUpperCase()', 'still works')).toEqual({ value: 'STILL WORKS' });
  });

  it('ends a worker stuck in slow operations that QuickJS does not interrupt, and carries on in a fresh one', async () => {
    // Each turn of this loop is one slow operation: QuickJS polls its deadline only every few thousand.
    const results = await sandbox.runFunctions([
      { id: 'before', source: '(text) => text.length' },
      { id: 'slow', source: 'function () { for (;;) "x".repeat(4e6).indexOf("y"); }' },
      { id: 'after', source: '(text) => text.slice(0, 2)' },
    ], 'abc');
    expect(results[0]).toEqual({ value: 3 });
    expect(failureOf(results[1]!)).toEqual({ kind: expect.stringMatching(/^time-limit$/), message: expect.stringMatching(/time limit/) });
    expect(results[2]).toEqual({ value: 'ab' });
  });

  it('refuses a source that is not a function, a value that is not data and an output over the limit', async () => {
    expect(failureOf(await run('function ( {'))).toMatchObject({ kind: 'compile', message: expect.stringContaining('SyntaxError') });
    expect(failureOf(await run('42'))).toMatchObject({ kind: 'compile', message: expect.stringContaining('not a function expression') });
    expect(failureOf(await run('() => { const cycle = {}; cycle.self = cycle; return cycle; }'))).toMatchObject({ kind: 'thrown', message: expect.stringContaining('circular') });
    expect(failureOf(await run('() => "x".repeat(5000)'))).toMatchObject({ kind: 'output', message: expect.stringContaining('more than the 1,000 allowed') });
  });
});
