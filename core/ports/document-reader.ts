import type { CancellationSignal } from './cancellation-signal.ts';

/**
 * How a hybrid answer gets the text of the documents its SQL selected (the S-RAG paper, §3.3,
 * Hybrid Inference Mode): the surface that ingested them knows where they live and what was
 * recorded about them. The CLI reads the canonical absolute paths the store keeps and looks the
 * hashes up in the ingestion log; core decides what is missing or changed.
 */
export interface DocumentReader {
  /**
   * The content hash recorded for each source when its row was extracted (the SHA-256 of the
   * content `read` returns). A source with no recorded hash is left out of the map.
   */
  recordedHashes(sources: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** The document's current content, as ingestion read it; throws (`DOCUMENT_UNREADABLE`) when it cannot be read. */
  read(source: string, abortSignal?: CancellationSignal): Promise<string>;
  /** How the prompt and messages name the document, e.g. a path relative to the working directory. Default: the source. */
  label?(source: string): string;
}
