import type { SystemSummary } from '../../core/index.ts';

/**
 * The summary as an aligned text table, one row per system, like the S-RAG paper's Table 3 plus the
 * deterministic metric and what answering cost. Judge columns show "–" when no judge ran; a
 * "judge failures" column appears when a judge's reply could not be used. "on incomplete columns"
 * counts the answers whose SQL read a column with values missing or dropped ("–": the system
 * reports no coverage).
 */
export function formatSummaryTable(summaries: readonly SystemSummary[]): string {
  const withFailures = summaries.some((summary) => summary.judgeFailures > 0);
  const header = ['system', 'questions', 'errors', 'on incomplete columns', 'deterministic', 'answer comparison', 'answer recall', ...(withFailures ? ['judge failures'] : []), 'prompt tokens/q', 'completion tokens/q', 'latency/q'];
  const fraction = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(3));
  const rows = summaries.map((summary) => [
    summary.system,
    String(summary.questions),
    String(summary.errors),
    summary.incompleteCoverage === undefined ? '–' : String(summary.incompleteCoverage),
    fraction(summary.deterministic),
    fraction(summary.answerComparison),
    fraction(summary.answerRecall),
    ...(withFailures ? [String(summary.judgeFailures)] : []),
    Math.round(summary.promptTokensPerQuestion).toLocaleString('en-US'),
    Math.round(summary.completionTokensPerQuestion).toLocaleString('en-US'),
    `${Math.round(summary.meanLatencyMs).toLocaleString('en-US')} ms`,
  ]);
  const widths = header.map((title, index) => rows.reduce((widest, row) => Math.max(widest, row[index]!.length), title.length));
  const line = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ');
  return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
