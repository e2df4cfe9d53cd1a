import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { SragError } from '../errors/srag-error.ts';
import { renderContextPassages } from '../evaluation/answer-from-context.ts';
import type { TextEmbedder } from '../evaluation/text-embedder.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { DocumentReader } from '../ports/document-reader.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import { chunkDocuments } from '../retrieval/chunk-documents.ts';
import { createChunkRanker } from '../retrieval/chunk-ranker.ts';
import { fitContextBudget } from '../retrieval/fit-context-budget.ts';
import { countNoun } from '../text/count-noun.ts';
import type { DocumentProblem } from './document-problem.ts';
import { readSelectedDocuments } from './read-selected-documents.ts';

/** What a surface hands to the hybrid path: where documents are read, and how retrieval is set up. */
export interface HybridReading {
  reader: DocumentReader;
  /** The hash the ingestion log recorded (the same function ingestion used); default core's `contentHash`. */
  hashText?: (text: string) => string;
  /**
   * Dense ranking when this yields an embedder (the endpoint serves embeddings), BM25 otherwise, as
   * the `rag` baseline does. Called only when a question takes the hybrid path, so a surface may probe the endpoint here.
   */
  loadEmbedder?: () => Promise<TextEmbedder | undefined>;
  /** The token counter for chunking and the budget, loaded on the hybrid path only; default an approximation. */
  loadTokenCounter?: () => Promise<(text: string) => number>;
  /** Chunk size in tokens; default 500, the S-RAG paper's VectorRAG (Appendix A). */
  chunkTokens?: number;
  /** The budget for document text in the answer prompt; default 20,000 tokens (the paper's 40 chunks of 500). */
  contextTokens?: number;
  /**
   * At most this many selected documents are read (default 1,000), in the order the query returned
   * them: a query that selects 100,000 documents does not read them all for one answer. The answer
   * prompt and the result say how many were left out.
   */
  maximumDocuments?: number;
}

/** A hybrid answer and what it rests on. */
export interface DocumentAnswer {
  answer: string;
  /** The documents whose passages the answer model was shown, in the query's order: what the answer cites. */
  documents: string[];
  /** Distinct documents the query selected. */
  selectedDocuments: number;
  /** Selected documents that were not read because they are missing or changed. */
  documentProblems: DocumentProblem[];
  /** Tokens of document text in the answer prompt. */
  contextTokens: number;
  usage: TokenUsage & { calls: number };
}

/**
 * The second step of the S-RAG paper's HYBRID-S-RAG (§3.3, §5.2): the SQL narrowed the corpus to
 * `sources`; their text is read again (missing or changed documents are reported, not used), cut
 * into chunks, ranked against the question (BM25, or the endpoint's embeddings), and the best
 * chunks that fit the context budget are shown to the answer model, grouped by document in the
 * query's order. Chunks that share no keyword with the question still come after the ranked ones,
 * since the query chose their documents; a question whose selection fits the budget reads it whole.
 */
export async function answerFromDocuments(options: HybridReading & {
  client: ModelClient;
  prompts: PromptLibrary;
  question: string;
  sql: string;
  sources: readonly string[];
  /** True when the engine cut the query's result, so more documents matched than `sources` holds. */
  selectionCut?: boolean;
  model?: string;
  abortSignal?: CancellationSignal;
}): Promise<DocumentAnswer> {
  const { client, sources, abortSignal } = options;
  const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
  if (sources.length === 0) {
    return { answer: 'The query selected no documents, so there is nothing to read.', documents: [], selectedDocuments: 0, documentProblems: [], contextTokens: 0, usage };
  }
  const countTokens = (await options.loadTokenCounter?.()) ?? approximateTokenCount;
  const maximumDocuments = options.maximumDocuments ?? 1_000;
  const toRead = sources.slice(0, maximumDocuments);
  const { documents, problems } = await readSelectedDocuments({ reader: options.reader, sources: toRead, hashText: options.hashText, abortSignal });
  if (documents.length === 0) {
    throw new SragError({
      code: 'DOCUMENT_UNREADABLE',
      message: `none of the ${countNoun(toRead.length, 'document')} the query selected can be read as ingested: ${problems[0]!.message}`,
      hint: 'restore the documents, or run srag ingest again so the table matches them',
    });
  }
  const chunks = chunkDocuments(documents, options.chunkTokens ?? 500, countTokens);
  const rank = await createChunkRanker(chunks.map((chunk) => chunk.text), { client, embedder: await options.loadEmbedder?.(), abortSignal });
  const ranked = await rank(options.question, chunks.length, abortSignal);
  const rankedSet = new Set(ranked);
  const order = [...ranked, ...chunks.map((_, index) => index).filter((index) => !rankedSet.has(index))];
  const context = fitContextBudget(chunks, order, options.contextTokens ?? 20_000);
  const documentOrder = new Map(documents.map((document, index) => [document.source, index]));
  const shown = context.chunks.sort((left, right) => documentOrder.get(left.source)! - documentOrder.get(right.source)! || (left.part ?? 0) - (right.part ?? 0));
  const labels = new Map(documents.map((document) => [document.source, document.label]));
  const cited = [...new Set(shown.map((chunk) => chunk.source))];

  const response = await client.generate({
    model: options.model,
    messages: [{
      role: 'user',
      content: renderPrompt(options.prompts['answer-from-documents'], {
        question: options.question,
        sql: options.sql,
        selection: describeSelection({ selected: sources.length, selectionCut: options.selectionCut === true, read: toRead.length, problems: problems.length, shown: cited.length, whole: shown.length === chunks.length }),
        context: renderContextPassages(shown.map((chunk) => ({ source: labels.get(chunk.source)!, part: chunk.part, text: chunk.text }))),
      }),
    }],
    abortSignal,
  }, (reply) => reply);
  usage.promptTokens += response.usage.promptTokens;
  usage.completionTokens += response.usage.completionTokens;
  if (!response.cached) usage.calls += 1;
  return { answer: response.text.trim(), documents: cited, selectedDocuments: sources.length, documentProblems: problems, contextTokens: context.tokens, usage };
}

/** The sentence that tells the answer model how much of the selection it sees, so a partial context is not taken for the whole. */
function describeSelection({ selected, selectionCut, read, problems, shown, whole }: { selected: number; selectionCut: boolean; read: number; problems: number; shown: number; whole: boolean }): string {
  const parts = [`The query selected ${selectionCut ? 'more than ' : ''}${countNoun(selected, 'document')}.`];
  if (read < selected) parts.push(`Only the first ${read} were read.`);
  if (problems > 0) parts.push(`${countNoun(problems, 'document')} could not be read as ingested (missing or changed) and ${problems === 1 ? 'is' : 'are'} left out.`);
  parts.push(whole ? `The context holds the whole text of ${countNoun(shown, 'document')}.` : `The context holds the passages most related to the question, from ${countNoun(shown, 'document')}.`);
  return parts.join(' ');
}
