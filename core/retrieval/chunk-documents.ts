import { splitDocument } from '../documents/split-document.ts';
import type { ContextPassage } from '../evaluation/answer-from-context.ts';
import type { ContextDocument } from '../evaluation/answering-system.ts';

/** A passage with its size, as retrieval ranks and budgets it. */
export interface Chunk extends ContextPassage {
  tokens: number;
}

/**
 * Documents cut into chunks of at most `chunkTokens` tokens, at headings, paragraphs and sentences,
 * never overlapping (the S-RAG paper's VectorRAG, Appendix A), in document order. A chunk names its
 * document and, when the document was cut, its 1-based part.
 */
export function chunkDocuments(documents: readonly ContextDocument[], chunkTokens: number, countTokens: (text: string) => number): Chunk[] {
  return documents.flatMap((document) =>
    splitDocument(document.text, chunkTokens, countTokens, { balanced: false }).map((text, index, parts) => ({
      source: document.source,
      part: parts.length > 1 ? index + 1 : undefined,
      text,
      tokens: countTokens(text),
    })));
}
