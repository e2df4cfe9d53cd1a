import { describeRetry, type RetryNotice } from '../../core/index.ts';

/** After this long without a finished document, the line says how long it has been waiting. */
const quietMilliseconds = 10_000;

/**
 * What a progress line adds after its counts, so that a run never looks frozen: the latest retry
 * while it waits (`retry 2/6 in 4 s: 429`), else how long no document has finished
 * (`waiting 35 s for the model`). Shared by the `srag ingest` bar and the SQL functions' line.
 */
export class ProgressStatus {
  private lastProgressAt: number;
  private retry: { notice: RetryNotice; until: number } | undefined;

  constructor(private readonly now: () => number = Date.now) {
    this.lastProgressAt = now();
  }

  progressed(): void {
    this.lastProgressAt = this.now();
  }

  retrying(notice: RetryNotice): void {
    this.retry = { notice, until: this.now() + notice.delayMilliseconds };
  }

  /** The text to show now; empty when all is moving. */
  text(): string {
    const now = this.now();
    if (this.retry && now <= this.retry.until) return describeRetry(this.retry.notice, this.retry.until - now);
    const quiet = now - this.lastProgressAt;
    return quiet >= quietMilliseconds ? `waiting ${Math.round(quiet / 1000)} s for the model` : '';
  }
}
