import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RetryNotice } from '../../core/index.ts';
import { createProgressReporter } from '../../node/cli/progress-reporter.ts';
import { ProgressLine } from '../../node/sql-functions/llm-bridge/progress-line.ts';
import { ProgressStatus } from '../../node/runtime/progress-status.ts';

const notice = (attempt: number, delayMilliseconds: number, reason = '429'): RetryNotice => ({ model: 'm', attempt, maxRetries: 6, delayMilliseconds, reason });

describe('the status after a progress line\'s counts', () => {
  it('shows the latest retry, counting its wait down, until the wait is over', () => {
    let now = 0;
    const status = new ProgressStatus(() => now);
    status.retrying(notice(2, 4_000));
    expect(status.text()).toBe('retry 2/6 in 4 s: 429');
    now = 2_500;
    expect(status.text()).toBe('retry 2/6 in 2 s: 429');
    now = 4_500;
    expect(status.text()).toBe('');
  });

  it('says how long nothing has finished once a request hangs for ten seconds', () => {
    let now = 0;
    const status = new ProgressStatus(() => now);
    now = 9_000;
    expect(status.text()).toBe('');
    now = 35_000;
    expect(status.text()).toBe('waiting 35 s for the model');
    status.progressed();
    expect(status.text()).toBe('');
  });
});

describe('the SQL functions\' progress line', () => {
  it('shows a retry after the counts while the scan waits', async () => {
    const written: string[] = [];
    const line = new ProgressLine(true, (text) => written.push(text));
    line.start(10);
    await new Promise((resolve) => setTimeout(resolve, 550));
    line.update(3, 1);
    line.retry(notice(1, 2_000, 'timeout'));
    line.clear();
    expect(written.at(-2)).toMatch(/3\/10 documents \| 1 failed \| eta \d+s \| retry 1\/6 in 2 s: timeout \(Ctrl-C cancels\)$/);
    expect(written.at(-1)).toBe('\r\u001b[2K');
  });

  it('draws nothing when stderr is not a terminal', () => {
    const written: string[] = [];
    const line = new ProgressLine(false, (text) => written.push(text));
    line.start(10);
    line.retry(notice(1, 2_000));
    line.update(3, 0);
    line.clear();
    expect(written).toEqual([]);
  });
});

describe('the srag ingest progress bar', () => {
  it('shows a retry in the bar on a terminal', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true }) as unknown as NodeJS.WriteStream;
    let output = '';
    (stream as unknown as PassThrough).on('data', (chunk) => { output += String(chunk); });
    const reporter = createProgressReporter(5, stream);
    reporter.update({ completed: 1, total: 5, source: 'a.html', documentSource: '/docs/a.html', outcome: 'done' });
    reporter.retry(notice(2, 4_000));
    reporter.stop();
    expect(output).toContain('1/5 documents | 0 failed');
    expect(output).toContain('| retry 2/6 in 4 s: 429');
  });
});
