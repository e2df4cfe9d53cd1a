import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { documentAtPathShownAs } from '../../node/runtime/document-at-path.ts';

/** A full collection, so that what the heap holds afterwards is what is still referenced. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('the documents an ingest is given', () => {
  // `srag ingest` holds every document it was given for the whole run: at 100,000 documents each
  // byte here is 100 kB of heap. A closure for `read` and its context were ~90 bytes more each.
  it('keep nothing per document but a small object besides their two strings', () => {
    const count = 20_000;
    const sources = Array.from({ length: count }, (_, index) => `/srv/corpus/docs/page-${String(index).padStart(6, '0')}.html`);
    const labels = sources.map((source) => source.slice('/srv/corpus/'.length));
    collectGarbage();
    const before = getHeapStatistics().used_heap_size;
    const documents = sources.map((source, index) => documentAtPathShownAs(source, labels[index]!));
    collectGarbage();
    const perDocument = (getHeapStatistics().used_heap_size - before) / count;
    expect(documents[7]!.label).toBe('docs/page-000007.html');
    // The object (~20 bytes) and its place in the list (4): 25–65 measured, the test's own allocations adding some; 177 with a closure.
    expect(perDocument).toBeLessThan(90);
  });
});
