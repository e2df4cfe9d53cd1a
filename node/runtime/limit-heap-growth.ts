import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap grow past what its last full collection kept before it collects again,
 * in percent. V8's default lets it grow to up to four times that. srag's long runs keep little per
 * document but make garbage fast (each reply's evidence check, each group commit's rows), so the
 * heap ran far ahead of its live data: at 30, `srag ingest` of 20,000 pages peaked at 335–340 MB
 * instead of 445–475 MB (100,000 pages: 550–570 MB against 612–634 MB) and a 20,000-page
 * `srag_extract` at 546–570 MB instead of 667–724 MB, for no measurable CPU (see
 * `npm run bench`, `npm run bench:udf-scale`).
 */
const heapGrowingPercent = 30;

/**
 * Sets it for every thread of this process (V8 reads the flag at each collection, so it holds for
 * heaps made before too). For srag's own processes only — the CLI sets it at start — never for a
 * program that imports srag as a library: its heap is its own to tune.
 */
export function limitHeapGrowth(): void {
  for (const flag of heapGrowthFlags()) setFlagsFromString(flag);
}

/** The V8 flags `limitHeapGrowth` sets (V8 11 to 13 know them: Node 20, 22 and 24). */
export function heapGrowthFlags(): string[] {
  return [`--heap-growing-percent=${heapGrowingPercent}`];
}
