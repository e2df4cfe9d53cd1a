import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { chunkDocuments, type Chunk } from '../retrieval/chunk-documents.ts';
import { createChunkRanker, type ChunkRanker } from '../retrieval/chunk-ranker.ts';
import { fitContextBudget } from '../retrieval/fit-context-budget.ts';
import { answerFromContext } from './answer-from-context.ts';
import type { AnsweringSystem, ContextDocument } from './answering-system.ts';
import type { TextEmbedder } from './text-embedder.ts';

export interface RagSystemOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  documents: ContextDocument[];
  /** Chunk size; the paper uses 500 (S-RAG paper Appendix A). */
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

/**
 * The VectorRAG baseline (S-RAG paper §5.1, Appendix A): documents cut into chunks of at most
 * `chunkTokens` tokens (at headings, paragraphs and sentences, never overlapping), the `topK`
 * chunks most similar to the question retrieved and concatenated with a delimiter naming each
 * chunk's document, and the answer model asked to answer from that context alone. Similarity is
 * the embedder's cosine when an embedding endpoint exists, else BM25 over keywords.
 */
export function createRagSystem(options: RagSystemOptions): AnsweringSystem {
  const countTokens = options.countTokens ?? approximateTokenCount;
  const chunkTokens = options.chunkTokens ?? 500;
  const topK = options.topK ?? 40;
  let chunks: Chunk[] = [];
  let rank: ChunkRanker | undefined;

  return {
    name: 'rag',
    describe: () =>
      `${options.embedder ? `embeddings (${options.embedder.modelId})` : 'BM25'} top-${topK} of ${chunks.length} chunks of ≤${chunkTokens} tokens` +
      `${options.contextTokens ? `, context ≤${options.contextTokens} tokens` : ''}`,
    async prepare(abortSignal) {
      if (rank) return;
      chunks = chunkDocuments(options.documents, chunkTokens, countTokens);
      rank = await createChunkRanker(chunks.map((chunk) => chunk.text), { client: options.client, embedder: options.embedder, abortSignal });
    },
    async answer(question, abortSignal) {
      await this.prepare(abortSignal);
      const context = fitContextBudget(chunks, await rank!(question, topK, abortSignal), options.contextTokens);
      return answerFromContext({ client: options.client, prompts: options.prompts, question, passages: context.chunks.map(({ tokens: _tokens, ...passage }) => passage), contextTokens: context.tokens, model: options.model, abortSignal });
    },
  };
}
