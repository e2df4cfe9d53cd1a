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
 * is reported with its error and judged wrong; errors that would fail every question (no model,
 * a refused key, cancellation) stop the run. Reports come back in system order, then question order.
 */
export async function evaluateQuestions(options: EvaluateQuestionsOptions): Promise<QuestionReport[]> {
  const now = options.now ?? Date.now;
  const limit = pLimit(Math.max(1, options.concurrency ?? 4));
  const reports: QuestionReport[] = [];
  for (const system of options.systems) {
    await system.prepare(options.abortSignal);
    const systemReports = await Promise.all(options.questions.map((question, position) => limit(async () => {
      throwIfAborted(options.abortSignal);
      const started = now();
      let answered: SystemAnswer | undefined;
      let error: string | null = null;
      try {
        answered = await system.answer(question.question, options.abortSignal);
      } catch (caught) {
        if (failsEveryDocument(caught) || options.abortSignal?.aborted) throw caught;
        error = SragError.isInstance(caught) ? caught.message : caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
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
      if (options.judge) await addJudgements(report, question, options.judge, error !== null);
      options.onReport?.(report);
      return report;
    })));
    for (const report of systemReports) reports.push(report);
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
  const [comparison, recall] = await Promise.all([judgeAnswerComparison(judgeOptions), judgeAnswerRecall(judgeOptions)]);
  report.verdicts.answerComparison = { correct: comparison.verdict ?? null, reply: comparison.reply };
  report.verdicts.answerRecall = { recall: recall.recall, claims: recall.claims };
  report.judgeTokens = {
    prompt: comparison.usage.promptTokens + recall.usage.promptTokens,
    completion: comparison.usage.completionTokens + recall.usage.completionTokens,
  };
}

function throwIfAborted(abortSignal: CancellationSignal | undefined): void {
  if (abortSignal?.aborted) throw new SragError({ code: 'CANCELLED', message: 'evaluation cancelled' });
}
