/**
 * A JavaScript function the model wrote to read one attribute from documents of one template
 * (Evaporate-Code+'s idea, in the S-RAG pipeline): srag checks it against the model's own
 * extraction of held-out documents and uses it only when it agrees on every one of them.
 */
export interface SynthesizedExtractor {
  attribute: string;
  /** A function expression of one argument, the document text, returning `{ value, quote }` or null. */
  source: string;
  /** `accepted`: code fills this attribute; `rejected`: the model does (see `reason`). */
  status: 'accepted' | 'rejected';
  /** Why it was rejected, one line naming the document, e.g. "read 12 in b.md, where the model read 13". */
  reason: string | null;
  /** How many documents it was checked on (samples and held-out). */
  checkedDocuments: number;
  /**
   * For an accepted extractor: how its quotes sat in the checked documents (`quoteBoundaries`);
   * a value whose quote sits otherwise goes to the model. Empty: not checked (an older store).
   */
  quoteBoundaries: string[];
}
