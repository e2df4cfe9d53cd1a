/**
 * Seconds a server asked us to wait: `retry-after-ms` (OpenAI's), else `Retry-After` in seconds
 * or as an HTTP date; undefined when it did not say.
 */
export function parseRetryAfter(headers: Record<string, string>, now = Date.now()): number | undefined {
  const milliseconds = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] && Number.isFinite(milliseconds)) return Math.max(0, milliseconds / 1000);
  const value = headers['retry-after'];
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, (date - now) / 1000) : undefined;
}
