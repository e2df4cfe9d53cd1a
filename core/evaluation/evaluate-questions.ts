import { isIncomplete } from '../coverage/column-coverage.ts';
import pLimit from 'p-limit';
import { SragError } from '../errors/srag-error.ts';
import { failsEveryDocument } from '../extraction/fails-every-document.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { AnsweringSystem, SystemAnswer } from './answering-system.ts';
import type { EvaluationQuestion, GoldAnswer } from './evaluation-question.ts';
import { judgeAnswerComparison } from './judge-answer-comparison.ts';
import { judgeAnswerRecall, type ClaimJudgement } from './judge-answer-recall.ts';
import { judgeDeterministically, type DeterministicVerdict } from './judge-deterministically.ts';

/** One system's answer to one question, with every verdict: one line of the report. */
export interface QuestionReport {
  system: string;
  /** 1-based position in the questions file. */
  index: number;
  id?: string;
  question: string;
  /** The gold answer text. */
  gold: string;
  /** Structured gold, when the questions file has it. */
  goldStructured?: GoldAnswer;
  answer: string;
  sql: string | null;
  /** Some value behind the answer is missing, dropped or of unknown footing; absent for a system that reports no coverage. */
  incompleteCoverage?: boolean;
  /** Documents the baselines showed the model (rag, full-corpus). */
  contextSources?: string[];
  /** Why the system gave no answer (a rejected query, an invalid reply); null when it answered. */
  error: string | null;
  verdicts: {
    deterministic: DeterministicVerdict;
    /** Absent without a judge; `correct` is null when the judge's reply said neither yes nor no. */
    answerComparison?: { correct: boolean | null; reply: string };
    answerRecall?: { recall: number; claims: ClaimJudgement[] };
  };
  /**
   * Judges whose reply could not be used for this question (the verdict above is then absent):
   * that metric is lost for this question only, and left out of its mean.
   */
  judgeErrors?: { answerComparison?: string; answerRecall?: string };
  /** What answering cost (not judging), as the endpoint reported it. */
  tokens: { prompt: number; completion: number; calls: number };
  judgeTokens?: { prompt: number; completion: number };
  /** Wall time of answering, judging excluded; includes waiting for a free request slot. */
  latencyMs: number;
}

export interface EvaluateQuestionsOptions {
  systems: AnsweringSystem[];
  questions: EvaluationQuestion[];
  /** The LLM judges (Answer Comparison, Answer Recall); without it only the deterministic metric runs. */
  judge?: { client: ModelClient; prompts: PromptLibrary; model?: string };
  relativeTolerance?: number;
  /** Questions answered at once per system (model calls are bounded by the client as well). Default 4. */
  concurrency?: number;
  /** Milliseconds clock for latencies; `Date.now` by default. */
  now?: () => number;
  onReport?: (report: QuestionReport) => void;
  abortSignal?: CancellationSignal;
}

/**
 * Ask every system every question and judge each answer: the deterministic metric always, the
 * paper's two LLM-judge metrics when a judge is given. Systems run one after another, so their
 * latencies do not disturb each other. A question a system fails on (rejected SQL, an invalid reply)
 * is reported with its error and judged wrong; a judge whose reply cannot be used costs that metric
 * for that question only; errors that would fail every question (no model, a refused key,
 * cancellation) stop the run — but only once every question already started has finished, so that
 * nothing the caller closes afterwards (a database connection) is still in use. Reports come back
 * in system order, then question order.
 */
export async function evaluateQuestions(options: EvaluateQuestionsOptions): Promise<QuestionReport[]> {
  const now = options.now ?? Date.now;
  const limit = pLimit(Math.max(1, options.concurrency ?? 4));
  const reports: QuestionReport[] = [];
  let fatal: { error: unknown } | undefined;
  const stopOn = (error: unknown): never => {
    fatal ??= { error };
    throw error;
  };
  for (const system of options.systems) {
    await system.prepare(options.abortSignal);
    const settled = await Promise.allSettled(options.questions.map((question, position) => limit(async () => {
      if (fatal) throw fatal.error;
      if (options.abortSignal?.aborted) stopOn(new SragError({ code: 'CANCELLED', message: 'evaluation cancelled' }));
      const started = now();
      let answered: SystemAnswer | undefined;
      let error: string | null = null;
      try {
        answered = await system.answer(question.question, options.abortSignal);
      } catch (caught) {
        if (failsEveryDocument(caught) || options.abortSignal?.aborted) stopOn(caught);
        error = describe(caught);
      }
      const latencyMs = now() - started;
      const answer = answered?.answer ?? '';
      const report: QuestionReport = {
        system: system.name,
        index: position + 1,
        ...(question.id !== undefined ? { id: question.id } : {}),
        question: question.question,
        gold: question.answer,
        ...(question.gold !== undefined ? { goldStructured: question.gold } : {}),
        answer,
        sql: answered?.sql ?? null,
        ...(answered?.coverage ? { incompleteCoverage: answered.coverage.some(isIncomplete) } : {}),
        ...(answered?.contextSources ? { contextSources: answered.contextSources } : {}),
        error,
        verdicts: { deterministic: judgeDeterministically(question, answer, { relativeTolerance: options.relativeTolerance }) },
        tokens: {
          prompt: answered?.usage.promptTokens ?? 0,
          completion: answered?.usage.completionTokens ?? 0,
          calls: answered?.usage.calls ?? 0,
        },
        latencyMs,
      };
      if (options.judge) await addJudgements(report, question, options.judge, error !== null).catch(stopOn);
      options.onReport?.(report);
      return report;
    })));
    if (fatal) throw fatal.error;
    for (const outcome of settled) {
      if (outcome.status === 'rejected') throw outcome.reason;
      reports.push(outcome.value);
    }
  }
  return reports;
}

async function addJudgements(
  report: QuestionReport,
  question: EvaluationQuestion,
  judge: NonNullable<EvaluateQuestionsOptions['judge']>,
  failed: boolean,
): Promise<void> {
  if (failed) {
    // Nothing to judge: the system gave no answer.
    report.verdicts.answerComparison = { correct: false, reply: '(no answer)' };
    report.verdicts.answerRecall = { recall: 0, claims: [] };
    return;
  }
  const judgeOptions = { ...judge, question: question.question, goldAnswer: question.answer, answer: report.answer };
  // Each judge on its own: one whose reply cannot be used loses its metric, not the other's.
  const [comparison, recall] = await Promise.allSettled([judgeAnswerComparison(judgeOptions), judgeAnswerRecall(judgeOptions)]);
  const tokens = { prompt: 0, completion: 0 };
  const judgeErrors: NonNullable<QuestionReport['judgeErrors']> = {};
  if (comparison.status === 'fulfilled') {
    report.verdicts.answerComparison = { correct: comparison.value.verdict ?? null, reply: comparison.value.reply };
    tokens.prompt += comparison.value.usage.promptTokens;
    tokens.completion += comparison.value.usage.completionTokens;
  } else {
    judgeErrors.answerComparison = judgeFailure(comparison.reason);
  }
  if (recall.status === 'fulfilled') {
    report.verdicts.answerRecall = { recall: recall.value.recall, claims: recall.value.claims };
    tokens.prompt += recall.value.usage.promptTokens;
    tokens.completion += recall.value.usage.completionTokens;
  } else {
    judgeErrors.answerRecall = judgeFailure(recall.reason);
  }
  report.judgeTokens = tokens;
  if (judgeErrors.answerComparison !== undefined || judgeErrors.answerRecall !== undefined) report.judgeErrors = judgeErrors;
}

/** A judge's failure as report text; a failure that would fail every judge call stops the run instead. */
function judgeFailure(error: unknown): string {
  if (failsEveryDocument(error)) throw error;
  return describe(error);
}

function describe(error: unknown): string {
  return SragError.isInstance(error) ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

