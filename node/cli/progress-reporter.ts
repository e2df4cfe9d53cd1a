import cliProgress from 'cli-progress';
import type { RunProgress, RetryNotice } from '../../core/index.ts';
import { ProgressStatus } from '../runtime/progress-status.ts';

export interface ProgressReporter {
  update(progress: RunProgress): void;
  /** A model call is about to wait before its next try: the bar says so until the wait ends. */
  retry(notice: RetryNotice): void;
  stop(): void;
}

/** How often the bar redraws its status while nothing else changes (a wait counting down). */
const statusRedrawMilliseconds = 1_000;

/**
 * A progress bar on a TTY (stderr); silent otherwise, so logs and pipes stay clean. Besides the
 * counts it shows retries and long waits (see `ProgressStatus`), so a run never looks frozen.
 */
export function createProgressReporter(total: number, stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (!stream.isTTY || total === 0) return { update: () => {}, retry: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar({
    stream,
    format: 'extracting {bar} {value}/{total} documents | {failed} failed | eta {eta_formatted}{status}',
    hideCursor: true,
    clearOnComplete: true,
  }, cliProgress.Presets.shades_classic);
  const status = new ProgressStatus();
  const statusPayload = () => {
    const text = status.text();
    return text ? ` | ${text}` : '';
  };
  let failed = 0;
  bar.start(total, 0, { failed, status: '' });
  const timer = setInterval(() => bar.update({ status: statusPayload() }), statusRedrawMilliseconds);
  timer.unref();
  return {
    update(progress: RunProgress) {
      if (progress.outcome === 'failed') failed += 1;
      status.progressed();
      // An ingest that also finishes a Batch API submission's documents goes over more than it was given.
      if (progress.total !== bar.getTotal()) bar.setTotal(progress.total);
      bar.update(progress.completed, { failed, status: statusPayload() });
    },
    retry(notice: RetryNotice) {
      status.retrying(notice);
      bar.update({ status: statusPayload() });
    },
    stop: () => {
      clearInterval(timer);
      bar.stop();
    },
  };
}
