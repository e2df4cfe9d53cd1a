import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { heapBytesBeforeLimit, heapGrowthFlags, watchHeapGrowth } from '../../node/runtime/limit-heap-growth.ts';

// The CLI limits V8's heap growth only once the heap is large: below `heapBytesBeforeLimit` the
// limit cost full collections for no memory worth keeping (a 3,000-page ingest: 4 mark-compacts
// with it from the start, 2 without; 100,000 pages still peaked at 311 MB with the limit set late).
describe('limitHeapGrowth', () => {
  it('sets the flags at once when the heap is already past the size', () => {
    const set: string[][] = [];
    watchHeapGrowth(() => heapBytesBeforeLimit + 1, (flags) => set.push(flags));
    expect(set).toEqual([heapGrowthFlags()]);
  });

  it('waits while the heap is small and sets the flags once, when it has grown past the size', async () => {
    let heap = 20 * 1024 * 1024;
    const set: string[][] = [];
    const stop = watchHeapGrowth(() => heap, (flags) => set.push(flags));
    try {
      await wait(600);
      expect(set).toEqual([]);
      heap = heapBytesBeforeLimit + 1;
      await wait(600);
      expect(set).toEqual([heapGrowthFlags()]);
      await wait(600);
      expect(set).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
