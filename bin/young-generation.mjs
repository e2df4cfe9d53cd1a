// Whether bin/srag.js starts itself again with Node 20's young generation (plain JavaScript: it
// runs before any TypeScript can be loaded, in a clone and in the installed package alike).
//
// V8 13 (Node 24) sizes its young generation, where objects are made, from the machine's memory
// (nodejs/node#62723): on a 24 GiB machine `srag ingest` grew it to 128 MiB, where Node 20 and 22
// stop at 32, and 100,000 pages peaked at 446–456 MB against 307–319 on Node 20. V8 fixes that size
// when it makes the heap: `--max-semi-space-size` set afterwards changes nothing, and a cap applied
// from within after each collection was overrun in the ingest's longer synchronous stretches. So
// the commands that go through many documents or run for long start once more with
// `--max-semi-space-size=16` (Node 20's size on such a machine), through `process.execve`, which
// replaces this process: the same process id, standard streams, signals and exit status, no parent
// left waiting. 100,000 pages on Node 24 then peak at 352 MB; the CPU is Node 20's again (0.54
// against 0.47 ms per document: V8 collects the smaller young generation more often), plus one more
// start of Node (~20–50 ms). Where `process.execve` is missing (Windows; Node before 22.15) the
// command runs as it is.

/** Commands that go through many documents or serve for long; the rest start once. */
const longCommands = new Set(['ingest', 'sql', 'run', 'serve', 'mcp', 'eval']);

/** Node 20's semi-space on a 64-bit machine with more than 2 GiB, in MiB. */
const semiSpaceMegabytes = 16;

/**
 * The arguments to start this process again with, or undefined to run as it is: only on V8 13
 * and later, for a long command, and when neither the command line nor NODE_OPTIONS sets the
 * semi-space already (so the second start runs as it is).
 */
export function youngGenerationRestart({ argv, execArgv, nodeOptions = '', v8Version }) {
  if (Number.parseInt(v8Version, 10) < 13) return undefined;
  if (!longCommands.has(argv[2])) return undefined;
  if ([...execArgv, ...nodeOptions.split(/\s+/)].some((option) => /^--max[-_]semi[-_]space[-_]size\b/.test(option))) return undefined;
  return [argv[0], `--max-semi-space-size=${semiSpaceMegabytes}`, ...execArgv, ...argv.slice(1)];
}
