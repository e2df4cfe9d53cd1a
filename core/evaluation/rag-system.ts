import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { splitDocument } from '../documents/split-document.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { answerFromContext, type ContextPassage } from './answer-from-context.ts';
import type { AnsweringSystem, ContextDocument } from './answering-system.ts';
import { Bm25Index } from './bm25-index.ts';
import { cosineSimilarity, type TextEmbedder } from './text-embedder.ts';

export interface RagSystemOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  documents: ContextDocument[];
  /** Chunk size; the paper uses 500 (seed 000 Appendix A). */
  chunkTokens?: number;
  /** Chunks retrieved per question; the paper uses 40. */
  topK?: number;
  /** A cap on the retrieved text; chunks past it are dropped. Default: no cap beyond `topK`. */
  contextTokens?: number;
  /** Dense retrieval when given; BM25 keyword retrieval otherwise. */
  embedder?: TextEmbedder;
  countTokens?: (text: string) => number;
  model?: string;
}

const embeddingBatchSize = 64;

/**
 * The VectorRAG baseline (seed 000 §5.1, Appendix A): documents cut into chunks of at most
 * `chunkTokens` tokens (at headings, paragraphs and sentences, never overlapping), the `topK`
 * chunks most similar to the question retrieved and concatenated with a delimiter naming each
 * chunk's document, and the answer model asked to answer from that context alone. Similarity is
 * the embedder's cosine when an embedding endpoint exists, else BM25 over keywords.
 */
export function createRagSystem(options: RagSystemOptions): AnsweringSystem {
  const countTokens = options.countTokens ?? approximateTokenCount;
  const chunkTokens = options.chunkTokens ?? 500;
  const topK = options.topK ?? 40;
  let chunks: ContextPassage[] = [];
  let chunkSizes: number[] = [];
  let search: ((question: string, abortSignal?: CancellationSignal) => Promise<number[]>) | undefined;

  return {
    name: 'rag',
    describe: () =>
      `${options.embedder ? `embeddings (${options.embedder.modelId})` : 'BM25'} top-${topK} of ${chunks.length} chunks of ≤${chunkTokens} tokens` +
      `${options.contextTokens ? `, context ≤${options.contextTokens} tokens` : ''}`,
    async prepare(abortSignal) {
      if (search) return;
      chunks = options.documents.flatMap((document) =>
        splitDocument(document.text, chunkTokens, countTokens, { balanced: false }).map((text, index, parts) => ({ source: document.source, part: parts.length > 1 ? index + 1 : undefined, text })));
      chunkSizes = chunks.map((chunk) => countTokens(chunk.text));
      const { embedder } = options;
      if (embedder) {
        const vectors: number[][] = [];
        for (let start = 0; start < chunks.length; start += embeddingBatchSize) {
          const texts = chunks.slice(start, start + embeddingBatchSize).map((chunk) => chunk.text);
          vectors.push(...await options.client.call(embedder.modelId, (signal) => embedder.embed(texts, signal), abortSignal));
        }
        search = async (question, signal) => {
          const [query] = await options.client.call(embedder.modelId, (callSignal) => embedder.embed([question], callSignal), signal);
          return vectors
            .map((vector, index) => ({ index, score: cosineSimilarity(query!, vector) }))
            .sort((left, right) => right.score - left.score || left.index - right.index)
            .slice(0, topK)
            .map((entry) => entry.index);
        };
      } else {
        const index = new Bm25Index(chunks.map((chunk) => chunk.text));
        search = async (question) => index.search(question, topK);
      }
    },
    async answer(question, abortSignal) {
      await this.prepare(abortSignal);
      const ranked = await search!(question, abortSignal);
      const passages: ContextPassage[] = [];
      let used = 0;
      for (const index of ranked) {
        if (options.contextTokens !== undefined && used + chunkSizes[index]! > options.contextTokens) break;
        passages.push(chunks[index]!);
        used += chunkSizes[index]!;
      }
      return answerFromContext({ client: options.client, prompts: options.prompts, question, passages, contextTokens: used, model: options.model, abortSignal });
    },
  };
}
