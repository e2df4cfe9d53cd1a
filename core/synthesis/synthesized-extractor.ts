/**
 * A JavaScript function the model wrote to read one attribute from documents of one template
 * (Evaporate-Code+'s idea, in the S-RAG pipeline): srag checks it against the model's own
 * extraction of held-out documents and uses it only when it agrees on every one of them.
 */
import type { AttributeDefinition } from '../schema/attribute-definition.ts';

export interface SynthesizedExtractor {
  attribute: string;
  /** The attribute's definition it was written for (`attributeDefinitionKey`): a changed one makes it stale. */
  definition: string;
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

/** What a function is written against: the attribute's name, kind, description, unit and scale. */
export function attributeDefinitionKey(attribute: AttributeDefinition): string {
  return JSON.stringify([attribute.name, attribute.kind, attribute.description, attribute.unit ?? null, attribute.scale ?? null]);
}
