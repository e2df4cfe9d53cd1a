import { type Command, InvalidArgumentError, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import {
  countNoun, createFullCorpusSystem, createRagSystem, createSragSystem, evaluateQuestions, parseEvaluationQuestions, SragError, summarizeEvaluation,
  type AggregativeDataset, type AnsweringSystem, type ContextDocument, type EvaluationQuestion, type QuestionReport, type TextEmbedder,
} from '../../../core/index.ts';
import { loadAggregativeDataset } from '../evaluation/load-aggregative-dataset.ts';
import { formatSummaryTable } from '../evaluation/format-summary-table.ts';
import { detectTextEmbedder } from '../evaluation/detect-text-embedder.ts';
import { prepareDatasetTable } from '../evaluation/prepare-dataset-table.ts';
import { readBaselineDocuments } from '../evaluation/read-baseline-documents.ts';
import { openSession, type Session } from '../open-session.ts';
import { readTextFile } from '../read-text-file.ts';
import { createProgressReporter } from './progress-reporter.ts';
import { readSchemaFile } from './read-schema-file.ts';
import { resolveDocuments } from './resolve-documents.ts';

const systemNames = ['srag', 'rag', 'full-corpus'] as const;
type SystemName = (typeof systemNames)[number];

export interface EvalCommandOptions {
  questions?: string;
  dataset?: string;
  schema?: string;
  db?: string;
  table?: string;
  system: SystemName | 'all';
  docs?: string[];
  judge: boolean;
  judgeModel?: string;
  baselineModel?: string;
  output?: string;
  topK: number;
  chunkTokens: number;
  contextTokens: number;
  documentTokens: number;
  retrieval: 'auto' | 'bm25' | 'embeddings';
  embeddingModel?: string;
  tolerance: number;
  concurrency: number;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a positive whole number');
  return number;
}

function fraction(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number >= 1) throw new InvalidArgumentError('expected a number from 0 to below 1, e.g. 0.001');
  return number;
}

/** Adds `srag eval` to the program; `setExitStatus` receives the command's exit status. */
export function registerEvalCommand(program: Command, abortSignal: AbortSignal, setExitStatus: (status: number) => void): void {
  program.command('eval')
    .description('measure answers against gold answers for srag and the paper\'s baselines (rag, full-corpus), like the S-RAG paper\'s Table 3')
    .option('--questions <file>', 'JSONL: {"question", "answer", optional "sql", optional structured "gold"} per line')
    .option('--dataset <dir>', 'a directory with corpus.jsonl and questions.jsonl (the AI21 aggregative_questions layout): ingests the corpus and evaluates on it')
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
    .action(async (options: EvalCommandOptions) => { setExitStatus(await evalCommand(options, abortSignal)); });
}

/**
 * `srag eval`: every chosen system answers every question; each answer gets the deterministic
 * verdict and, unless --no-judge, the paper's two judge metrics. Prints a summary table with one
 * row per system; -o writes the per-question report.
 */
export async function evalCommand(options: EvalCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const chosen: SystemName[] = options.system === 'all' ? [...systemNames] : [options.system];
  const dataset = options.dataset ? await loadAggregativeDataset(options.dataset) : undefined;
  if (dataset) {
    log(`${options.dataset}: ${countNoun(dataset.documents.length, 'document')} ("${dataset.fields.documentId}", "${dataset.fields.documentText}"), ${countNoun(dataset.questions.length, 'question')} ("${dataset.fields.question}", "${dataset.fields.answer}")`);
  }
  const questions = options.questions ? await readQuestions(options.questions) : dataset?.questions;
  if (!questions) throw new SragError({ code: 'INPUT_INVALID', message: 'no questions to evaluate', hint: 'pass --questions FILE.jsonl, or --dataset DIR with corpus.jsonl and questions.jsonl' });

  const usesStore = chosen.includes('srag') || dataset !== undefined || options.db !== undefined;
  const session = await openSession(usesStore ? options.db ?? 'srag.duckdb' : ':memory:', { abortSignal });
  try {
    const client = session.modelClient();
    let table = options.table;
    if (dataset && chosen.includes('srag')) {
      const schema = options.schema ? await readSchemaFile(options.schema) : undefined;
      // The bar starts with the first document, after any schema prediction has logged its line.
      let progress: ReturnType<typeof createProgressReporter> | undefined;
      try {
        table = await prepareDatasetTable({
          session, dataset, table, schema, abortSignal, log,
          onProgress: (update) => (progress ??= createProgressReporter(dataset.documents.length)).update(update),
        });
      } finally {
        progress?.stop();
      }
    }
    const systems: AnsweringSystem[] = [];
    let documents: ContextDocument[] | undefined;
    for (const name of chosen) {
      if (name === 'srag') {
        systems.push(await sragSystem(session, table));
        continue;
      }
      documents ??= await baselineDocuments(options, session, dataset, table);
      const countTokens = await session.loadTokenCounter();
      const model = options.baselineModel ?? session.settings.model;
      if (name === 'rag') {
        systems.push(createRagSystem({
          client, prompts: session.prompts, documents, countTokens, model,
          chunkTokens: options.chunkTokens, topK: options.topK, contextTokens: options.contextTokens,
          embedder: await embedderFor(options, session, log),
        }));
      } else {
        systems.push(createFullCorpusSystem({
          client, prompts: session.prompts, documents, countTokens, model,
          contextTokens: options.contextTokens, documentTokens: options.documentTokens,
        }));
      }
    }

    const total = questions.length * systems.length;
    let done = 0;
    const reports = await evaluateQuestions({
      systems,
      questions,
      judge: options.judge ? { client, prompts: session.prompts, model: options.judgeModel ?? session.settings.model } : undefined,
      relativeTolerance: options.tolerance,
      concurrency: options.concurrency,
      abortSignal,
      onReport: (report) => {
        done += 1;
        const judgeErrors = Object.entries(report.judgeErrors ?? {}).map(([metric, message]) => ` (${metric === 'answerRecall' ? 'answer recall' : 'answer comparison'} judge failed: ${message})`).join('');
        log(`[${done}/${total}] ${report.system} ${report.verdicts.deterministic.correct ? '✓' : '✗'} ${report.question}${report.error ? ` (error: ${report.error})` : ''}${judgeErrors}`);
      },
    });
    if (options.output) await writeReport(options.output, reports);

    process.stdout.write(`${systems.map((system) => `${system.name}: ${system.describe()}`).join('\n')}\n\n`);
    process.stdout.write(`${formatSummaryTable(summarizeEvaluation(reports))}\n`);
    const usage = client.usage.total();
    process.stdout.write(
      `\n${countNoun(questions.length, 'question')} × ${countNoun(systems.length, 'system')}; deterministic metric with relative tolerance ${options.tolerance}` +
      `${options.judge ? `; judge ${options.judgeModel ?? session.settings.model}` : '; no judge'}; ` +
      `${countNoun(usage.calls, 'model call')}, ${usage.cacheHits} from cache, ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens` +
      `${options.output ? `; report in ${options.output}` : ''}\n`,
    );
    return 0;
  } finally {
    session.close();
  }
}

async function readQuestions(path: string): Promise<EvaluationQuestion[]> {
  const text = await readTextFile(path, { what: 'the questions file', hint: 'pass --questions with a JSONL file of {"question", "answer"} objects' });
  return parseEvaluationQuestions(text, path);
}

async function sragSystem(session: Session, table: string | undefined): Promise<AnsweringSystem> {
  const info = await session.store.tableInfo(table);
  const rowCount = await session.store.exclusive(async (connection) =>
    Number((await connection.runAndReadAll(`SELECT count(*) FROM "${info.table.replace(/"/g, '""')}"`)).getRowsJS()[0]?.[0] ?? 0));
  return createSragSystem({
    client: session.modelClient(), prompts: session.prompts, sqlEngine: session.sqlEngine,
    table: info.table, schema: info.schema, statistics: info.statistics, rowCount, model: session.settings.model,
  });
}

async function baselineDocuments(options: EvalCommandOptions, session: Session, dataset: AggregativeDataset | undefined, table: string | undefined): Promise<ContextDocument[]> {
  if (options.docs?.length || !dataset) {
    const documents = options.docs?.length ? (await resolveDocuments(options.docs)).documents : undefined;
    return readBaselineDocuments({ documents, store: session.store, table });
  }
  return dataset.documents;
}

async function embedderFor(options: EvalCommandOptions, session: Session, log: (line: string) => void): Promise<TextEmbedder | undefined> {
  if (options.retrieval === 'bm25') return undefined;
  const detected = await detectTextEmbedder({
    apiKey: session.settings.apiKey,
    baseURL: session.settings.baseURL,
    model: options.embeddingModel ?? (process.env.SRAG_EMBEDDING_MODEL || 'text-embedding-3-small'),
    timeoutMilliseconds: session.settings.requestTimeoutMilliseconds,
  });
  if ('embedder' in detected) return detected.embedder;
  if (options.retrieval === 'embeddings') {
    throw new SragError({ code: 'LLM_REQUEST_FAILED', message: `--retrieval embeddings: the endpoint has no usable /embeddings (${detected.reason})`, hint: 'use --retrieval bm25, or set --embedding-model to a model the endpoint serves' });
  }
  log(`rag: no embeddings endpoint (${detected.reason}); retrieving with BM25 keyword search`);
  return undefined;
}

async function writeReport(path: string, reports: QuestionReport[]): Promise<void> {
  await writeFile(path, reports.map((report) => JSON.stringify(report)).join('\n') + '\n');
}
