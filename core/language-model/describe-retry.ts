import type { RetryNotice } from './model-client.ts';

/** A retry as a progress line shows it: `retry 2/6 in 4 s: 429`. `remainingMilliseconds` counts the wait down. */
export function describeRetry(notice: RetryNotice, remainingMilliseconds = notice.delayMilliseconds): string {
  return `retry ${notice.attempt}/${notice.maxRetries} in ${Math.max(0, Math.ceil(remainingMilliseconds / 1000))} s: ${notice.reason}`;
}
