import type { NormalizedValue } from '../normalization/index.ts';
import { describeDisagreement } from './describe-disagreement.ts';
import type { SynthesizedExtractor } from './synthesized-extractor.ts';

/**
 * About one document in this many that code reads is read by the model as well. On 1,000 templated
 * listings (bench:synthesize) 50 drew 30 documents: 27,770 model tokens against 5,875 without the
 * check and 37,104 at 20 — still 15× fewer than extracting every document. A misread that shows on
 * 5% of the documents is caught with a chance of about 1 - 0.95^20 ≈ 64% at 50.
 */
export const defaultRecheckEvery = 50;

/**
 * The check of accepted extractors while they serve a run: about one document in `every` that code
 * reads goes to the model whole, as it would without code, and the model's values are compared with
 * code's; the record saved is the model's. Which ones is decided by a hash of the document's text,
 * so the sample is spread over the run, the same on a rerun, and independent of the order in which
 * documents reach the sandbox (a run of one new document costs a call only when it is drawn).
 * A value code read that the model does not read alike rejects that extractor for the rest of the
 * run (`rejected`): the documents after it send its attribute to the model, and the run's caller
 * has the model read it again where code read it before (see `runSynthesizedExtraction`).
 *
 * The check documents vouch only for documents like them; this sample catches a function that
 * misreads a variant they did not show, at a cost of one model call in `every` documents.
 */
export class ExtractorRecheck {
  /** Why each extractor rejected during the run was, by attribute: one line naming the document. */
  readonly rejected = new Map<string, string>();
  /** Documents re-read by the model so far. */
  documents = 0;

  constructor(readonly every: number = defaultRecheckEvery) {}

  /** The extractors still serving: the accepted ones not rejected during the run. */
  serving(extractors: readonly SynthesizedExtractor[]): readonly SynthesizedExtractor[] {
    return this.rejected.size === 0 ? extractors : extractors.filter((extractor) => !this.rejected.has(extractor.attribute));
  }

  /** Called for each document code read a value of: whether the model reads it too. */
  picks(text: string): boolean {
    const picked = textHash(text) % this.every === 0;
    if (picked) this.documents += 1;
    return picked;
  }

  /** Compares what code read of a document (its values only) with what the model read of it. */
  compare(document: string, code: Readonly<Record<string, NormalizedValue>>, model: Readonly<Record<string, NormalizedValue>>): void {
    for (const [attribute, value] of Object.entries(code)) {
      if (this.rejected.has(attribute)) continue;
      const problem = describeDisagreement(value, model[attribute] ?? null, document);
      if (problem !== null) this.rejected.set(attribute, `${problem} (a re-check during the run)`);
    }
  }
}

/** FNV-1a over the text's UTF-16 code units: cheap, stable, spread well enough to draw a sample. */
function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
