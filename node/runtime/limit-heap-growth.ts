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
 * The sizes past which the limit is set: this thread's V8 heap, or the whole process's resident
 * memory. Below both the limit saves little memory and costs CPU: at 3,000 pages, where the heap
 * keeps 13–21 MB, it made V8 collect the whole heap twice as often (4 mark-compacts against 2),
 * ~0.04 ms of CPU per document more (round 12 of issue 40). A 3,000-page ingest stays below both
 * (heap 62–74 MB, 209–213 MB resident). `srag ingest` passes the heap's in its first seconds (100,000
 * pages then peaked at 311 MB; at 360 MB with the resident size alone). `srag sql` extracts on worker
 * threads, whose heaps the main thread does not see: the resident size catches those (a 20,000-page
 * `srag_extract` peaked at 501 MB, against 577 MB watching the heap alone); the flag holds for every
 * thread.
 */
export const heapBytesBeforeLimit = 96 * 1024 * 1024;
export const residentBytesBeforeLimit = 256 * 1024 * 1024;

/** How often a process whose memory is still small looks again. */
const heapCheckMilliseconds = 250;

let watching = false;

/**
 * Sets the limit for every thread of this process (V8 reads the flag at each collection, so it
 * holds for heaps made before too) once its heap or its resident memory has grown past its size
 * (see `heapBytesBeforeLimit`); a second call changes nothing. For srag's own processes only — the
 * CLI calls this at start — never for a program that imports srag as a library: its heap is its
 * own to tune.
 */
export function limitHeapGrowth(): void {
  if (watching) return;
  watching = true;
  watchHeapGrowth(
    () => getHeapStatistics().total_heap_size > heapBytesBeforeLimit || process.memoryUsage.rss() > residentBytesBeforeLimit,
    (flags) => { for (const flag of flags) setFlagsFromString(flag); },
  );
}

/**
 * Calls `setFlags` with `heapGrowthFlags()` once `isLarge()` says the process has grown: at once
 * when it already has, otherwise from a timer that looks four times a second and keeps no
 * process alive. Returns what stops the timer.
 */
export function watchHeapGrowth(isLarge: () => boolean, setFlags: (flags: string[]) => void): () => void {
  if (isLarge()) {
    setFlags(heapGrowthFlags());
    return () => {};
  }
  const timer = setInterval(() => {
    if (!isLarge()) return;
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
