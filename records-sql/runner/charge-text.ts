import type { QueryRun } from './query-run.ts';

/** Text a function, an aggregate or `||` built: the work of writing it, and the memory it may keep. */
export function chargeText(run: QueryRun, text: string): void {
  run.budget.text(text.length);
  run.budget.keptText(text.length);
}
