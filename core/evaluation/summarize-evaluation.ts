import type { QuestionReport } from './evaluate-questions.ts';

/** One row of the summary table (S-RAG paper Table 3), for one system. */
export interface SystemSummary {
  system: string;
  questions: number;
  /** Questions the system could not answer at all (an error, not a wrong answer). */
  errors: number;
  /** Answers that rested on a column with values missing, dropped or of unknown footing; undefined for a system that reports no coverage. */
  incompleteCoverage?: number;
  /** Fraction judged correct by the deterministic metric. */
  deterministic: number;
  /** Fraction the Answer Comparison judge called correct, over the questions it judged; undefined without a judge. */
  answerComparison?: number;
  /** Mean Answer Recall over the questions its judge judged; undefined without a judge. */
  answerRecall?: number;
  /** Judge verdicts lost to an unusable judge reply (each left out of its metric's mean). */
  judgeFailures: number;
  promptTokensPerQuestion: number;
  completionTokensPerQuestion: number;
  meanLatencyMs: number;
}

/** The per-system means of a report, in the order systems first appear in it. */
export function summarizeEvaluation(reports: readonly QuestionReport[]): SystemSummary[] {
  const bySystem = new Map<string, QuestionReport[]>();
  for (const report of reports) {
    const rows = bySystem.get(report.system);
    if (rows) rows.push(report);
    else bySystem.set(report.system, [report]);
  }
  return [...bySystem].map(([system, rows]) => {
    const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
    const compared = rows.filter((row) => row.verdicts.answerComparison !== undefined);
    const recalled = rows.filter((row) => row.verdicts.answerRecall !== undefined);
    const judgeFailures = rows.reduce((sum, row) => sum + (row.judgeErrors?.answerComparison !== undefined ? 1 : 0) + (row.judgeErrors?.answerRecall !== undefined ? 1 : 0), 0);
    return {
      system,
      questions: rows.length,
      errors: rows.filter((row) => row.error !== null).length,
      ...(rows.some((row) => row.incompleteCoverage !== undefined) ? { incompleteCoverage: rows.filter((row) => row.incompleteCoverage === true).length } : {}),
      deterministic: mean(rows.map((row) => (row.verdicts.deterministic.correct ? 1 : 0))),
      ...(compared.length > 0 ? { answerComparison: mean(compared.map((row) => (row.verdicts.answerComparison?.correct === true ? 1 : 0))) } : {}),
      ...(recalled.length > 0 ? { answerRecall: mean(recalled.map((row) => row.verdicts.answerRecall!.recall)) } : {}),
      judgeFailures,
      promptTokensPerQuestion: mean(rows.map((row) => row.tokens.prompt)),
      completionTokensPerQuestion: mean(rows.map((row) => row.tokens.completion)),
      meanLatencyMs: mean(rows.map((row) => row.latencyMs)),
    };
  });
}
