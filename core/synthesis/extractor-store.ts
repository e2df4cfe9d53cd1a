import type { SynthesizedExtractor } from './synthesized-extractor.ts';

/**
 * Where a table's synthesized extractors are kept, accepted and rejected alike, so that a later run
 * reuses them rather than paying for synthesis again (and `srag why` can say a value came from
 * code). Implemented by the DuckDB store (`srag_extractors`).
 */
export interface ExtractorStore {
  /** The table's extractors; empty when none were synthesized yet. */
  load(): Promise<SynthesizedExtractor[]>;
  /** Replaces the table's extractors. */
  save(extractors: readonly SynthesizedExtractor[]): Promise<void>;
}
