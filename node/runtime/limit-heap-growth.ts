import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap grow past what its last full collection kept before it collects again,
 * in percent. V8's default lets it grow to up to four times that. srag's long runs keep little per
 * document but make garbage fast (each reply's evidence check, each group commit's rows), so the
 * heap ran far ahead of its live data: at 30, `srag ingest` of 20,000 pages peaked at 335–340 MB
 * instead of 445–475 MB (100,000 pages: 550–570 MB against 612–634 MB) and a 20,000-page
 * `srag_extract` at 546–570 MB instead of 667–724 MB (see `npm run bench`, `npm run bench:udf-scale`).
 */
const heapGrowingPercent = 30;

/**
 * The V8 heap (all of it V8 has taken from the system) past which the limit is set. Below it the
 * limit saves little memory and costs CPU: at 3,000 pages, where the heap keeps 13–21 MB, it made
 * V8 collect the whole heap more often, ~0.04 ms of CPU per document more (round 12 of issue 40).
 * A 3,000-page ingest stays below this size without the limit; the long runs pass it in their
 * first seconds.
 */
export const heapBytesBeforeLimit = 96 * 1024 * 1024;

/** How often a process whose heap is still small looks again. */
const heapCheckMilliseconds = 250;

let watching = false;

/**
 * Sets the limit for every thread of this process (V8 reads the flag at each collection, so it
 * holds for heaps made before too) once its V8 heap has grown past `heapBytesBeforeLimit` (see
 * `watchHeapGrowth`); a second call changes nothing. For srag's own processes only — the CLI calls
 * this at start — never for a program that imports srag as a library: its heap is its own to tune.
 */
export function limitHeapGrowth(): void {
  if (watching) return;
  watching = true;
  watchHeapGrowth(() => getHeapStatistics().total_heap_size, (flags) => { for (const flag of flags) setFlagsFromString(flag); });
}

/**
 * Calls `setFlags` with `heapGrowthFlags()` once `heapBytes()` is past `heapBytesBeforeLimit`: at
 * once when it already is, otherwise from a timer that looks four times a second and keeps no
 * process alive. Returns what stops the timer.
 */
export function watchHeapGrowth(heapBytes: () => number, setFlags: (flags: string[]) => void): () => void {
  if (heapBytes() > heapBytesBeforeLimit) {
    setFlags(heapGrowthFlags());
    return () => {};
  }
  const timer = setInterval(() => {
    if (heapBytes() <= heapBytesBeforeLimit) return;
    clearInterval(timer);
    setFlags(heapGrowthFlags());
  }, heapCheckMilliseconds);
  timer.unref();
  return () => clearInterval(timer);
}

/** The V8 flags `limitHeapGrowth` sets (V8 11 to 13 know them: Node 20, 22 and 24). */
export function heapGrowthFlags(): string[] {
  return [`--heap-growing-percent=${heapGrowingPercent}`];
}
