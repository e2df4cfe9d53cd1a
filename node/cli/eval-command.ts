import { writeFile } from 'node:fs/promises';
import {
  countNoun, createFullCorpusSystem, createRagSystem, createSragSystem, evaluateQuestions, parseEvaluationQuestions, SragError, summarizeEvaluation,
  type AggregativeDataset, type AnsweringSystem, type ContextDocument, type EvaluationQuestion, type QuestionReport, type TextEmbedder,
} from '../../core/index.ts';
import { loadAggregativeDataset } from '../runtime/evaluation/load-aggregative-dataset.ts';
import { formatSummaryTable } from './format-summary-table.ts';
import { detectTextEmbedder } from '../runtime/evaluation/detect-text-embedder.ts';
import { prepareDatasetTable } from '../session/evaluation/prepare-dataset-table.ts';
import { readBaselineDocuments } from '../session/evaluation/read-baseline-documents.ts';
import { openSession, type Session } from '../session/open-session.ts';
import { readTextFile } from '../runtime/read-text-file.ts';
import { createProgressReporter } from './progress-reporter.ts';
import { readSchemaFile } from '../runtime/read-schema-file.ts';
import { resolveDocuments } from '../runtime/resolve-documents.ts';

import { systemNames, type SystemName } from './register-eval-command.ts';

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

/**
 * `srag eval`: every chosen system answers every question; each answer gets the deterministic
 * verdict and, unless --no-judge, the paper's two judge metrics. Prints a summary table with one
 * row per system; -o writes the per-question report.
 */
export async function evalCommand(options: EvalCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const chosen: SystemName[] = options.system === 'all' ? [...systemNames] : [options.system];
  const loaded = options.dataset ? await loadAggregativeDataset(options.dataset) : undefined;
  const dataset = loaded?.evaluated.dataset;
  if (loaded) {
    for (const { directory, dataset: split } of loaded.schema === loaded.evaluated ? [loaded.evaluated] : [loaded.schema, loaded.evaluated]) {
      const id = split.fields.documentId === null ? 'ids made from each text, doc-<sha256…>' : `"${split.fields.documentId}"`;
      log(`${directory}: ${countNoun(split.documents.length, 'document')} (${id}, "${split.fields.documentText}"), ${countNoun(split.questions.length, 'question')} ("${split.fields.question}", "${split.fields.answer}")`);
    }
  }
  const questions = options.questions ? await readQuestions(options.questions) : dataset?.questions;
  if (!questions) throw new SragError({ code: 'INPUT_INVALID', message: 'no questions to evaluate', hint: 'pass --questions FILE.jsonl, or --dataset DIR with corpus.jsonl and questions.jsonl' });

  const usesStore = chosen.includes('srag') || dataset !== undefined || options.db !== undefined;
  const session = await openSession(usesStore ? options.db ?? 'srag.duckdb' : ':memory:', { abortSignal });
  try {
    const client = session.modelClient();
    let table = options.table;
    let schemaFrom: 'given' | 'table' | 'predicted' | undefined;
    if (dataset && chosen.includes('srag')) {
      const schema = options.schema ? await readSchemaFile(options.schema) : undefined;
      // The bar starts with the first document, after any schema prediction has logged its line.
      let progress: ReturnType<typeof createProgressReporter> | undefined;
      try {
        ({ table, schemaFrom } = await prepareDatasetTable({
          session, dataset, table, schema, abortSignal, log,
          ...(loaded!.schema !== loaded!.evaluated ? { schemaSample: loaded!.schema.dataset, schemaSampleName: loaded!.schema.directory } : {}),
          onProgress: (update) => (progress ??= createProgressReporter(dataset.documents.length)).update(update),
        }));
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
    if (loaded) {
      const schema = schemaFrom === 'given' ? `the schema from --schema ${options.schema}`
        : schemaFrom === 'table' ? `the schema of table ${table}, already there`
          : schemaFrom === 'predicted' ? `the schema predicted from ${loaded.schema.directory}${loaded.schema === loaded.evaluated ? ' (the only split given)' : ''}` : 'no schema (srag not evaluated)';
      process.stdout.write(`dataset: ${schema}; documents ingested and questions asked from ${loaded.evaluated.directory}\n\n`);
    }
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
    tables: [{ name: info.table, schema: info.schema, statistics: info.statistics, origin: 'extracted' }], rowCount, model: session.settings.model, coverage: session.sqlEngine,
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
    maxReplyBytes: session.settings.maxReplyBytes,
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
