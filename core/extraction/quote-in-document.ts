/** A document folded for quote matching (`foldQuoteText`), with the offsets where its lines and sentences end. */
export interface FoldedDocument {
  /** The document as given, before folding. */
  source: string;
  text: string;
  /** Ascending offsets into `text`; the sentence around a span runs from the end before it to the end after it. */
  sentenceEnds: readonly number[];
  /** Ascending offsets into `text` where a clause ended inside a sentence (see `foldQuoteText`). */
  clauseEnds: readonly number[];
}

/**
 * Where a quote occurs in its document (`quoteLocator`): the folded document and each span the
 * quote covers there, from the start of its first passage to the end of its last (an elided
 * quote's span includes what it elided). A quote that occurs several times has several spans.
 */
export interface QuoteInDocument {
  document: FoldedDocument;
  spans: ReadonlyArray<{ start: number; end: number }>;
  /** How many passages the quote is made of: more than one when it is elided. */
  passages: number;
}
