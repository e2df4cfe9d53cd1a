import type { CancellationSignal } from '../ports/cancellation-signal.ts';

/**
 * The embedding port, used by the `rag` baseline when the endpoint serves `/embeddings`. Adapters
 * detect whether it does; without one the baseline falls back to BM25 keyword retrieval.
 */
export interface TextEmbedder {
  /** E.g. `text-embedding-3-small`; shown in the evaluation's description of the baseline. */
  readonly modelId: string;
  /** One vector per text, in order. */
  embed(texts: string[], abortSignal?: CancellationSignal): Promise<number[][]>;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosineSimilarity(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    dot += left[index]! * right[index]!;
    leftNorm += left[index]! * left[index]!;
    rightNorm += right[index]! * right[index]!;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}
