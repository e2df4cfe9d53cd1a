import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { heapGrowthFlags, watchHeapGrowth } from '../../node/runtime/limit-heap-growth.ts';

// The CLI limits V8's heap growth only once the process is large (`heapBytesBeforeLimit`,
// `residentBytesBeforeLimit`): below both the limit cost full collections for no memory worth
// keeping (a 3,000-page ingest: 4 mark-compacts with it from the start, 2 without).
describe('limitHeapGrowth', () => {
  it('sets the flags at once when the process is already past the size', () => {
    const set: string[][] = [];
    watchHeapGrowth(() => true, (flags) => set.push(flags));
    expect(set).toEqual([heapGrowthFlags()]);
  });

  it('waits while the process is small and sets the flags once, when it has grown past the size', async () => {
    let large = false;
    const set: string[][] = [];
    const stop = watchHeapGrowth(() => large, (flags) => set.push(flags));
    try {
      await wait(600);
      expect(set).toEqual([]);
      large = true;
      await wait(600);
      expect(set).toEqual([heapGrowthFlags()]);
      await wait(600);
      expect(set).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
