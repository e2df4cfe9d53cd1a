import { randomUUID } from 'node:crypto';
import type { Answer } from '../../app/index.ts';

/** How many answers the server keeps for tracing and downloads, newest first. */
const maximumAnswers = 64;
/** Cells of results kept in all (a result holds at most 10,000 rows): older answers go first past it. */
const maximumCells = 2_000_000;

/**
 * The answers a server gave, by an id of their own, so that a later request can trace a result
 * row to its records or download the result by naming the answer — never by sending SQL, which the
 * server would then run as the client's. Kept in memory, bounded in answers and cells; an answer
 * let go (or given before a restart) is asked again.
 */
export class KeptAnswers {
  private readonly answers = new Map<string, Answer>();
  private cells = 0;

  keep(answer: Answer): string {
    const id = randomUUID();
    this.answers.set(id, answer);
    this.cells += cellsOf(answer);
    for (const [oldest, kept] of this.answers) {
      if (this.answers.size <= 1 || (this.answers.size <= maximumAnswers && this.cells <= maximumCells)) break;
      this.answers.delete(oldest);
      this.cells -= cellsOf(kept);
    }
    return id;
  }

  find(id: string): Answer | undefined {
    return this.answers.get(id);
  }
}

function cellsOf(answer: Answer): number {
  return answer.rows.length * Math.max(1, answer.columns.length);
}
