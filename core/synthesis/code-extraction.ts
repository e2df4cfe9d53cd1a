import type { CodeSandbox } from '../ports/code-sandbox.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { ExtractorRecheck } from './extractor-recheck.ts';
import type { SynthesizedExtractor } from './synthesized-extractor.ts';

/** What an extraction run needs to fill attributes by code: the sandbox and the accepted extractors. */
export interface CodeExtraction {
  sandbox: CodeSandbox;
  /** Accepted extractors only; attributes without one stay with the model. */
  extractors: readonly SynthesizedExtractor[];
  /**
   * The schemas of the attributes left to the model, one object per set of attributes, so that the
   * extraction prompt built for each is rendered and counted once (see `extractionPrefix`).
   */
  remainingSchemas?: Map<string, RecordSchema>;
  /** Told when an extractor failed on a document (a throw, a limit, a refused value): the model extracts that attribute there. */
  onFallback?: (fallback: { document: string; attribute: string; reason: string }) => void;
  /** A sample of the documents code reads goes to the model too, and a disagreement rejects the extractor (see `ExtractorRecheck`). */
  recheck?: ExtractorRecheck;
}
