import cliProgress from 'cli-progress';
import type { RunProgress } from '../../../core/index.ts';

/** A progress bar on a TTY (stderr); silent otherwise, so logs and pipes stay clean. */
export function createProgressReporter(total: number, stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY || total === 0) return { update: (_progress: RunProgress) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar({
    stream,
    format: 'extracting {bar} {value}/{total} documents | {failed} failed | eta {eta_formatted}',
    hideCursor: true,
    clearOnComplete: true,
  }, cliProgress.Presets.shades_classic);
  let failed = 0;
  bar.start(total, 0, { failed });
  return {
    update(progress: RunProgress) {
      if (progress.outcome === 'failed') failed += 1;
      bar.update(progress.completed, { failed });
    },
    stop: () => bar.stop(),
  };
}
