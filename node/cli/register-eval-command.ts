import { type Command, InvalidArgumentError, Option } from 'commander';
import type { EvalCommandOptions } from './eval-command.ts';
import { positiveInteger } from './positive-integer.ts';

/** The systems `srag eval` compares: srag and the S-RAG paper's two baselines. */
export const systemNames = ['srag', 'rag', 'full-corpus'] as const;
export type SystemName = (typeof systemNames)[number];

function fraction(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number >= 1) throw new InvalidArgumentError('expected a number from 0 to below 1, e.g. 0.001');
  return number;
}

/** Adds `srag eval` to the program; `setExitStatus` receives the command's exit status. */
export function registerEvalCommand(program: Command, abortSignal: AbortSignal, setExitStatus: (status: number) => void): void {
  program.command('eval')
    .description('measure answers against gold answers for srag and the paper\'s baselines (rag, full-corpus), as the S-RAG paper measures them')
    .option('--questions <file>', 'JSONL: {"question", "answer", optional "sql", optional structured "gold"} per line')
    .option('--dataset <dir>', 'the AI21 aggregative_questions layout: NAME whose splits are NAME_train/ and NAME_eval/ (or either split; schema from train, documents and questions from eval), or one folder with corpus.jsonl and questions.jsonl')
    .option('--schema <file>', 'with --dataset: the schema to ingest with (default: the table\'s, else predicted)')
    .option('--db <file>', 'DuckDB file (default srag.duckdb; in memory when only baselines run without --dataset)')
    .option('--table <name>', 'table srag answers from (needed when the database holds several)')
    .addOption(new Option('--system <name>', 'which systems to evaluate').choices([...systemNames, 'all']).default('all'))
    .option('--docs <patterns...>', 'documents for rag and full-corpus (default: the files the table was ingested from)')
    .option('--no-judge', 'only the deterministic metric: no LLM judge calls')
    .option('--judge-model <model>', 'model for the Answer Comparison and Answer Recall judges (default SRAG_MODEL)')
    .option('--baseline-model <model>', 'answer model for rag and full-corpus (default SRAG_MODEL, the same as srag)')
    .option('-o, --output <file>', 'write the per-question report here (JSONL)')
    .option('--top-k <n>', 'rag: chunks retrieved per question (paper: 40)', positiveInteger, 40)
    .option('--chunk-tokens <n>', 'rag: chunk size in tokens (paper: 500)', positiveInteger, 500)
    .option('--context-tokens <n>', 'context budget of the baselines\' answer model, in tokens', positiveInteger, 100_000)
    .option('--document-tokens <n>', 'full-corpus: each document is cut to this many tokens first (paper: 20000)', positiveInteger, 20_000)
    .addOption(new Option('--retrieval <kind>', 'rag retrieval: embeddings when the endpoint serves /embeddings (auto), or always BM25').choices(['auto', 'bm25', 'embeddings']).default('auto'))
    .option('--embedding-model <model>', 'rag: embedding model (default SRAG_EMBEDDING_MODEL, else text-embedding-3-small)')
    .option('--tolerance <fraction>', 'deterministic metric: relative tolerance for numbers', fraction, 0.001)
    .option('--concurrency <n>', 'questions in progress at once per system', positiveInteger, 4)
    .addHelpText('after', `
Examples:
  srag eval --questions examples/hotels/questions.jsonl --db hotels.duckdb --no-judge
  srag eval --dataset datasets/AI21-Hotels --db ai21-hotels.duckdb -o report.jsonl`)
    .action(async (options: EvalCommandOptions) => { setExitStatus(await (await import('./eval-command.ts')).evalCommand(options, abortSignal)); });
}

