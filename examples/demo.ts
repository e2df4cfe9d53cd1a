/**
 * The quickstart's main job: predict a schema for the hotels sample corpus, ingest it, and ask
 * aggregate questions — through the real `srag` CLI, printing each command as it runs.
 *
 * With OPENAI_API_KEY or OPENAI_BASE_URL set, it uses that endpoint. Otherwise it starts the offline
 * LLM stand-in (a local server that answers from the corpus's gold data, used by the tests) and
 * says so: the numbers then show the pipeline working, not a model's quality.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpointIdentity } from '../openai-wire/endpoint-identity.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { describeStaleDemoEndpoint } from './stale-demo-endpoint.ts';
import { startDemoOverForAnotherModel } from './start-demo-over.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outputDirectory = 'demo-output';
const database = `${outputDirectory}/hotels.duckdb`;
const schemaFile = `${outputDirectory}/hotels.schema.json`;
const questionsFile = 'examples/hotels/questions.jsonl';

/** An argument as a reader would type it in a POSIX shell: bare when safe, else in double quotes, else in single quotes. */
function shellWord(arg: string): string {
  if (/^[\w./:=@%+,-]+$/.test(arg)) return arg;
  if (!/["$`\\!]/.test(arg)) return `"${arg}"`;
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

function shellLine(command: string, args: string[]): string {
  return [command, ...args.map(shellWord)].join(' ');
}

function srag(args: string[], environment: NodeJS.ProcessEnv): Promise<number> {
  process.stdout.write(`\n$ ${shellLine('srag', args)}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/srag.js', ...args], { cwd: root, env: environment, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (status) => resolve(status ?? 1));
  });
}


/** The stand-in in the background, for every sample corpus (the README's later sections ask of the World Cups and the cities too). */
const backgroundStandIn = 'eval "$(npx tsx tests/helpers/llm-stand-in/serve.ts --background)"';
/** Stopping it leaves no variable behind that points srag (or the next demo) at a server that is gone. */
const stopStandIn = 'kill $LLM_STAND_IN_PID; unset OPENAI_BASE_URL LLM_STAND_IN_PID';

async function main(): Promise<number> {
  const stale = await describeStaleDemoEndpoint(process.env);
  if (stale) {
    process.stderr.write(`npm run demo: ${stale}\n`);
    return 2;
  }
  mkdirSync(`${root}${outputDirectory}`, { recursive: true });
  const environment: NodeJS.ProcessEnv = { ...process.env };
  const configured = Boolean(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);
  const questions = readFileSync(`${root}${questionsFile}`, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { question: string; answer: string });
  const standIn = configured ? undefined : await startLlmStandIn({ corpora: ['examples/hotels'] });
  if (standIn) {
    environment.OPENAI_BASE_URL = standIn.url;
    environment.OPENAI_API_KEY = 'offline-stand-in';
    process.stdout.write([
      '=== OFFLINE DEMO ===',
      'No OPENAI_API_KEY or OPENAI_BASE_URL is set, so srag talks to the LLM stand-in: a local server',
      "that answers from the sample corpus's gold data (it is what the tests use), not a model. It",
      `answers only the ${questions.length} questions of ${questionsFile} and refuses any other. Set OPENAI_API_KEY,`,
      'or OPENAI_BASE_URL for Ollama, vLLM, llama.cpp or LM Studio, to run the same job with a real model.',
      `stand-in listening on ${standIn.url}`,
      '',
    ].join('\n'));
  } else {
    process.stdout.write(`using the configured endpoint ${process.env.OPENAI_BASE_URL ? endpointIdentity(process.env.OPENAI_BASE_URL) : 'https://api.openai.com/v1'} with model ${process.env.SRAG_MODEL ?? 'gpt-4o-mini'}\n`);
  }
  const startedOver = startDemoOverForAnotherModel({
    directory: `${root}${outputDirectory}`, files: [database, `${database}.wal`, schemaFile].map((file) => `${root}${file}`),
    madeBy: standIn ? 'the offline LLM stand-in' : `${endpointIdentity(process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1')} with model ${process.env.SRAG_MODEL ?? 'gpt-4o-mini'}`,
  });
  if (startedOver) process.stdout.write(`${database} was made by ${startedOver.previous}; starting it over for ${startedOver.now}\n`);
  try {
    let status = await srag(['schema', 'examples/hotels/docs', '--questions', questionsFile, '-o', schemaFile, '--db', database], environment);
    if (status !== 0) return status;
    status = await srag(['ingest', 'examples/hotels/docs', '--schema', schemaFile, '--db', database], environment);
    if (status !== 0) return status;
    const picked = [3, 0, 9, 12, 17].map((index) => questions[index]!).filter(Boolean);
    status = await srag(['ask', ...picked.map((question) => question.question), '--db', database], environment);
    process.stdout.write(`\ngold answers: ${picked.map((question) => question.answer).join(' | ')}\n`);
    const unasked = questions.find((question) => !picked.includes(question))!;
    process.stdout.write([
      '',
      `The database is ${database}. Next, in this shell:`,
      `  ${shellLine('npx srag ask', [picked[0]!.question, '--db', database])}   # asked above, so answered from the response cache: no model needed`,
      `  ${shellLine('npx srag stats', ['--db', database])}`,
      `  ${shellLine('npx srag why', ['amber-arch-hotel.md', 'price_per_night', '--db', database])}   # where a value came from`,
      ...(standIn ? [
        'A question the demo did not ask needs a model. Offline, start the stand-in in the background: it answers',
        'the questions of the sample corpora (examples/*/questions.jsonl), so the README\'s next sections run as written:',
        `  ${backgroundStandIn}`,
        `  ${shellLine('npx srag ask', [unasked.question, '--db', database])}`,
        `  ${stopStandIn}   # stops the stand-in and forgets it`,
        'Your own documents need a model: the cheapest are a local one (Ollama: OPENAI_BASE_URL=http://localhost:11434/v1',
        'SRAG_MODEL=llama3.1, no key, no cost) or a key with a budget (srag ingest --dry-run prices a run, --max-cost stops it).',
      ] : [
        `  ${shellLine('npx srag ask', ['…your question…', '--db', database])}`,
      ]),
      '',
    ].join('\n'));
    return status;
  } finally {
    await standIn?.close();
  }
}

process.exitCode = await main();
