import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { RetryNotice } from '../../../core/index.ts';
import { ProgressStatus } from '../../runtime/progress-status.ts';

/** Redraws at most this often; a scan of cached documents finishes thousands of rows in between. */
const redrawMilliseconds = 100;
/** A scan that ends sooner shows no bar at all. */
const showAfterMilliseconds = 500;
/** How often the line redraws while nothing finishes, so that a wait counts down rather than freezes. */
const statusRedrawMilliseconds = 1_000;
const barWidth = 28;

/**
 * The progress bar of a long `srag_extract` scan, drawn on stderr when it is a terminal. It is
 * written with `writeSync(2)` from the bridge worker because the thread that runs DuckDB is blocked
 * in the scan's callback and cannot print; the worker's own `process.stderr` goes through it.
 * Retries and long waits show after the counts (see `ProgressStatus`).
 */
export class ProgressLine {
  private total = 0;
  private completed = 0;
  private failed = 0;
  private startedAt = 0;
  private drawnAt = 0;
  private visible = false;
  private status = new ProgressStatus();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly enabled: boolean = isatty(2),
    /** Where the line goes; tests pass their own. */
    private readonly write: (text: string) => void = writeToStandardError,
  ) {}

  start(total: number): void {
    this.clear();
    Object.assign(this, { total, completed: 0, failed: 0, startedAt: Date.now(), drawnAt: 0, status: new ProgressStatus() });
    if (this.enabled && total > 0) {
      this.timer = setInterval(() => this.draw(true), statusRedrawMilliseconds);
      this.timer.unref();
    }
  }

  update(completed: number, failed: number): void {
    this.completed = completed;
    this.failed = failed;
    this.status.progressed();
    if (!this.enabled || this.total === 0) return;
    if (completed >= this.total) return this.clear();
    this.draw(false);
  }

  /** A model call is about to wait before its next try. */
  retry(notice: RetryNotice): void {
    this.status.retrying(notice);
    if (this.enabled && this.total > 0 && this.completed < this.total) this.draw(true);
  }

  clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.visible) this.write('\r\u001b[2K');
    this.visible = false;
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (now - this.startedAt < showAfterMilliseconds || (!force && now - this.drawnAt < redrawMilliseconds)) return;
    this.drawnAt = now;
    const filled = Math.round((this.completed / this.total) * barWidth);
    const elapsedSeconds = (now - this.startedAt) / 1000;
    const remaining = this.completed > 0 ? Math.round((elapsedSeconds / this.completed) * (this.total - this.completed)) : undefined;
    const status = this.status.text();
    const line = `extracting ${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)} ${this.completed}/${this.total} documents | ${this.failed} failed | eta ${remaining === undefined ? '?' : `${remaining}s`}${status ? ` | ${status}` : ''} (Ctrl-C cancels)`;
    this.write(`\r\u001b[2K${line}`);
    this.visible = true;
  }
}

function writeToStandardError(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // A closed terminal is no reason to fail a scan.
  }
}
