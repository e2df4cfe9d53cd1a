/**
 * Runs the LLM stand-in (a test double, not a model) until SIGINT/SIGTERM:
 *   npx tsx tests/helpers/llm-stand-in/serve.ts [--port 0] [--latency-ms 200] [--fault-rate 0.1]
 *     [--seed 1] [--corpus examples/hotels --corpus examples/worldcup] [--quiet] [--background]
 *     [--batch-polls 1] [--batch-failed-lines 0] [--batch-create-delay-ms 0]
 * Prints `OPENAI_BASE_URL=http://127.0.0.1:<port>/v1` on stdout once listening; logs requests to stderr.
 * Without --corpus it serves whichever of examples/hotels and examples/worldcup have gold data, and
 * the questions across tables of examples/cities.
 *
 * With --background it starts the server as a detached process, prints shell lines that point srag
 * at it and exits, so that one line sets up a shell:
 *   eval "$(npx tsx tests/helpers/llm-stand-in/serve.ts --corpus examples/hotels --background)"
 * The server stops on `kill $LLM_STAND_IN_PID` (then `unset OPENAI_BASE_URL LLM_STAND_IN_PID`, so that
 * nothing points srag at it any more), or by itself after --idle-minutes (default 30) without a request.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readyBundle } from '../../../node/runtime/workers/ready-bundle.mjs';
import { repositoryRoot } from './repository-root.ts';

const usage = `Runs the LLM stand-in: a local OpenAI-compatible server that answers srag's prompts from gold
data, for tests, benchmarks and the labelled offline demo. It is a test double, not a model.

Usage: npx tsx tests/helpers/llm-stand-in/serve.ts [options]
  --corpus DIR                 a gold corpus to answer from (repeatable; default: the examples with gold data)
  --port N                     port to listen on (default 0: any free port)
  --latency-ms N               milliseconds before each response (default 0)
  --fault-rate R               0..1, the share of requests answered with a random fault (default 0)
  --seed N                     seed of the fault draws (default 1)
  --quiet                      no line per request on stderr
  --background                 start detached, print shell lines that point srag at it, exit
  --idle-minutes N             stop after N minutes without a request (default 30 with --background)
  --batch-polls N              Batch API: polls answered in_progress before a batch completes (default 1)
  --batch-failed-lines N       Batch API: lines of each batch that fail (default 0)
  --batch-create-delay-ms N    Batch API: how long creating a batch takes (default 0)
  --help                       this text

Prints OPENAI_BASE_URL=http://127.0.0.1:<port>/v1 on stdout once listening. One line sets up a shell:
  eval "$(npx tsx tests/helpers/llm-stand-in/serve.ts --corpus examples/hotels --background)"
`;

const options = {
  help: { type: 'boolean', default: false },
  port: { type: 'string', default: '0' },
  'latency-ms': { type: 'string', default: '0' },
  'fault-rate': { type: 'string', default: '0' },
  seed: { type: 'string', default: '1' },
  corpus: { type: 'string', multiple: true },
  quiet: { type: 'boolean', default: false },
  background: { type: 'boolean', default: false },
  'idle-minutes': { type: 'string' },
  // The Batch API: retrieves a batch answers in_progress before it completes; lines of each batch that fail; how long a create takes.
  'batch-polls': { type: 'string', default: '1' },
  'batch-failed-lines': { type: 'string', default: '0' },
  'batch-create-delay-ms': { type: 'string', default: '0' },
} as const;

let parsed: ReturnType<typeof parseArgs<{ options: typeof options }>>;
try {
  parsed = parseArgs({ options });
} catch (error) {
  process.stderr.write(`llm stand-in: ${(error as Error).message}; see --help\n`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

function numberOption(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) {
    process.stderr.write(`llm stand-in: --${name} must be a number, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return value;
}

const defaultCorpora = [
  ...['examples/hotels', 'examples/worldcup', 'examples/guesthouses'].filter((directory) => existsSync(path.join(repositoryRoot, directory, 'gold', 'records.jsonl'))),
  // Questions across the sample corpora and the cities reference table (examples/cities/cities.csv).
  ...['examples/cities'].filter((directory) => existsSync(path.join(repositoryRoot, directory, 'questions.jsonl'))),
];

const corpora = values.corpus ?? defaultCorpora;

if (values.background) {
  // The same script, without --background, as a detached process that outlives this one.
  const serverArguments = process.argv.slice(2).filter((argument) => argument !== '--background');
  if (values['idle-minutes'] === undefined) serverArguments.push('--idle-minutes', '30');
  const server = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...serverArguments, '--quiet'], {
    // No stream of this process stays open in the server: a caller capturing them would wait for it.
    cwd: process.cwd(), detached: true, stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`llm stand-in: the server exited with status ${code} before listening`)));
  });
  server.stdout!.destroy();
  server.unref();
  const url = line.slice('OPENAI_BASE_URL='.length);
  process.stdout.write(`export OPENAI_BASE_URL=${url}\nexport LLM_STAND_IN_PID=${server.pid}\n`);
  process.stderr.write(`llm stand-in: listening on ${url} (process ${server.pid}); it answers only from the gold data of ${corpora.join(', ')} and refuses anything else; stop it with: kill $LLM_STAND_IN_PID; unset OPENAI_BASE_URL LLM_STAND_IN_PID\n`);
  process.exit(0);
}

const idleMinutes = values['idle-minutes'] === undefined ? undefined : numberOption('idle-minutes', values['idle-minutes']);
let idleTimer: NodeJS.Timeout | undefined;
const stopWhenIdle = () => {
  if (idleMinutes === undefined) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void standIn.close().then(() => process.exit(0)), idleMinutes * 60_000);
};

// Imported only to serve: --help and --background's first process (which starts the server and
// exits) do without the stand-in's modules. Served from a bundle of them when one was built from the
// sources as they are now (as srag's workers are; see node/runtime/workers/worker-bundle.ts): under
// tsx, importing the sources one by one took ~1.2 s of CPU at every start. Otherwise from the
// sources, with a bundle built for the next start.
const standInModule = new URL('./index.ts', import.meta.url);
const bundle = readyBundle(standInModule);
const { startLlmStandIn } = (bundle ? await import(bundle.href) : await import('./index.ts')) as typeof import('./index.ts');
if (!bundle) void import('../../../node/runtime/workers/worker-bundle.ts').then(({ prepareWorkerBundle }) => prepareWorkerBundle(standInModule));
const standIn = await startLlmStandIn({
  corpora,
  port: numberOption('port', values.port),
  latencyMs: numberOption('latency-ms', values['latency-ms']),
  faultRate: numberOption('fault-rate', values['fault-rate']),
  seed: numberOption('seed', values.seed),
  batchPollsUntilDone: numberOption('batch-polls', values['batch-polls']),
  batchFailedLines: numberOption('batch-failed-lines', values['batch-failed-lines']),
  batchCreateDelayMs: numberOption('batch-create-delay-ms', values['batch-create-delay-ms']),
  log: (line) => {
    stopWhenIdle();
    if (!values.quiet) process.stderr.write(`llm stand-in: ${line}\n`);
  },
});
stopWhenIdle();
process.stdout.write(`OPENAI_BASE_URL=${standIn.url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });
}
