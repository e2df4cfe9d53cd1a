import type { ColumnCoverage } from '../coverage/column-coverage.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';

/** What one system answered to one question, with what it cost. */
export interface SystemAnswer {
  answer: string;
  /** The SQL the answer rests on (srag). */
  sql?: string;
  /** What the values behind the answer rest on (srag, when the table keeps evidence). */
  coverage?: ColumnCoverage[];
  /** Documents whose text the answer model was shown, in context order (rag, full-corpus). */
  contextSources?: string[];
  /** Tokens of retrieved or concatenated text in the prompt (rag, full-corpus). */
  contextTokens?: number;
  usage: { promptTokens: number; completionTokens: number; calls: number };
}

/**
 * A question-answering system under evaluation: srag itself, or one of the paper's baselines
 * (S-RAG paper §5.1). Each is built once per run and asked every question.
 */
export interface AnsweringSystem {
  /** `srag`, `rag` or `full-corpus`: the row label of the summary table. */
  readonly name: string;
  /** One line on its setup, e.g. "BM25 top-40 of 61 chunks of ≤500 tokens". Available after `prepare`. */
  describe(): string;
  /** One-time work before the first question (chunking, embedding the corpus). */
  prepare(abortSignal?: CancellationSignal): Promise<void>;
  answer(question: string, abortSignal?: CancellationSignal): Promise<SystemAnswer>;
}

/** A document as the baselines read it: its name and its prompt text (HTML already reduced). */
export interface ContextDocument {
  source: string;
  text: string;
}
