import type { BatchApi, BatchRequest } from '../ports/batch-api.ts';

/** Room per line for what the wire adds around a request (id, method, URL, request options). */
const lineOverheadBytes = 300;

/**
 * Splits requests into batches the provider accepts: at most `maxRequestsPerBatch` each, and about
 * `maxBytesPerBatch` of request text (measured as UTF-16 length, at most three UTF-8 bytes a unit).
 */
export function splitBatchRequests(requests: readonly BatchRequest[], limits: Pick<BatchApi, 'maxRequestsPerBatch' | 'maxBytesPerBatch'>): BatchRequest[][] {
  const batches: BatchRequest[][] = [];
  let current: BatchRequest[] = [];
  let bytes = 0;
  for (const request of requests) {
    const size = JSON.stringify(request.request).length * 3 + lineOverheadBytes;
    if (current.length > 0 && (current.length >= limits.maxRequestsPerBatch || bytes + size > limits.maxBytesPerBatch)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(request);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
