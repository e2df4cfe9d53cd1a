import { Bm25Index } from '../evaluation/bm25-index.ts';
import { cosineSimilarity, type TextEmbedder } from '../evaluation/text-embedder.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';

/** Ranks a fixed list of texts against a question: indexes of the best `limit`, best first. */
export type ChunkRanker = (question: string, limit: number, abortSignal?: CancellationSignal) => Promise<number[]>;

const embeddingBatchSize = 64;

/**
 * Builds the ranking once for `texts`: the embedder's cosine similarity when one is given (the
 * texts are embedded here, in batches of 64, through the client so calls are counted and bounded),
 * else BM25 over keywords. BM25 leaves out texts sharing no keyword with the question; cosine
 * ranks every text.
 */
export async function createChunkRanker(
  texts: readonly string[],
  { client, embedder, abortSignal }: { client: ModelClient; embedder?: TextEmbedder; abortSignal?: CancellationSignal },
): Promise<ChunkRanker> {
  if (!embedder) {
    const index = new Bm25Index(texts);
    return async (question, limit) => index.search(question, limit);
  }
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += embeddingBatchSize) {
    const batch = texts.slice(start, start + embeddingBatchSize);
    vectors.push(...await client.call(embedder.modelId, (signal) => embedder.embed(batch, signal), abortSignal));
  }
  return async (question, limit, signal) => {
    const [query] = await client.call(embedder.modelId, (callSignal) => embedder.embed([question], callSignal), signal);
    return vectors
      .map((vector, index) => ({ index, score: cosineSimilarity(query!, vector) }))
      .sort((left, right) => right.score - left.score || left.index - right.index)
      .slice(0, limit)
      .map((entry) => entry.index);
  };
}
