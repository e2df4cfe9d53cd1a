import { readRecordReply, type PartRecord } from '../extraction/read-record-reply.ts';
import type { CodeSandbox } from '../ports/code-sandbox.ts';
import type { AttributeDefinition, RecordSchema } from '../schema/attribute-definition.ts';
import { quoteBoundaries } from './quote-boundaries.ts';
import type { SynthesizedExtractor } from './synthesized-extractor.ts';

/** Kept as the reason of a value code read, so that `srag why` (and anything showing evidence) says where it came from. */
export const codeReason = 'read by a synthesized extractor (srag ingest --synthesize; its function is in srag_extractors), its quote checked like a model\'s';

export interface CodeReading {
  /** The attributes code filled: a value backed by its quote, evidence marked `origin: 'code'`. */
  record: PartRecord;
  /** For each attribute code filled: how its quote sits in the text (`quoteBoundaries`). */
  boundaries: Map<string, string>;
  /**
   * The schema's other attributes, in schema order, each with why code did not fill it: `reason`
   * null when no extractor covers it; `failed` when its extractor failed or its value was refused
   * (rather than finding none).
   */
  left: Array<{ attribute: AttributeDefinition; reason: string | null; failed: boolean }>;
}

/**
 * Runs the extractors of `schema`'s attributes on one document's text in the sandbox and reads
 * what they return exactly as a model's reply is read (`readRecordReply`): the same normalization,
 * and the returned quote must occur in the text and state the value. Only a value that passes is
 * code's; a null, a failure (a throw, a time or memory limit) or a refused value leaves the
 * attribute to the model, so that code never turns a document it misreads into a silent NULL.
 */
export async function readCodeValues(sandbox: CodeSandbox, extractors: readonly SynthesizedExtractor[], schema: RecordSchema, text: string): Promise<CodeReading> {
  const byName = new Map(extractors.map((extractor) => [extractor.attribute, extractor]));
  const covered = schema.attributes.filter((attribute) => byName.has(attribute.name));
  const results = covered.length === 0
    ? []
    : await sandbox.runFunctions(covered.map((attribute) => ({ id: attribute.name, source: byName.get(attribute.name)!.source })), text);
  const reasons = new Map<string, { reason: string; failed: boolean }>();
  const none = { reason: 'it found no value', failed: false };
  const reply: Record<string, unknown> = Object.create(null);
  covered.forEach((attribute, index) => {
    const result = results[index]!;
    if ('failure' in result) return reasons.set(attribute.name, { reason: result.failure.message, failed: true });
    const returned = result.value;
    if (returned === null) return reasons.set(attribute.name, none);
    reply[attribute.name] = typeof returned === 'object' && !Array.isArray(returned) && Object.hasOwn(returned, 'value')
      ? returned
      : { value: returned, quote: null };
  });
  const returnedAttributes = covered.filter((attribute) => Object.hasOwn(reply, attribute.name));
  const read = readRecordReply(reply, { schema: { title: schema.title, attributes: returnedAttributes }, documentText: text, withEvidence: true, strict: false });
  const record: PartRecord = { values: Object.create(null) as PartRecord['values'], evidence: [], issues: [] };
  const boundaryOf = new Map<string, string>();
  if ('value' in read) {
    for (const evidence of read.value.evidence) {
      const boundaries = evidence.quote === null ? 'absent' : quoteBoundaries(text, evidence.quote);
      const seen = byName.get(evidence.attribute)!.quoteBoundaries;
      if (evidence.status === 'supported' && evidence.value !== null && seen.length > 0 && !seen.includes(boundaries)) {
        reasons.set(evidence.attribute, {
          reason: `its quote ${JSON.stringify(evidence.quote)} sits in the text unlike on the checked documents (${describeBoundaries(boundaries)}, not ${seen.map(describeBoundaries).join(' or ')})`,
          failed: true,
        });
      } else if (evidence.status === 'supported' && evidence.value !== null) {
        record.values[evidence.attribute] = evidence.value;
        record.evidence.push({ ...evidence, origin: 'code', reason: codeReason });
        boundaryOf.set(evidence.attribute, boundaries);
      } else {
        reasons.set(evidence.attribute, evidence.status === 'missing'
          ? none
          : { reason: `its value ${JSON.stringify(evidence.raw)} was refused: ${evidence.reason ?? evidence.status}`, failed: true });
      }
    }
  }
  const left = schema.attributes
    .filter((attribute) => !Object.hasOwn(record.values, attribute.name))
    .map((attribute) => ({ attribute, ...(reasons.get(attribute.name) ?? { reason: null, failed: false }) }));
  return { record, boundaries: boundaryOf, left };
}

function describeBoundaries(boundaries: string): string {
  if (boundaries === 'absent') return 'not found verbatim';
  const [before, after] = boundaries.split('|');
  const words: Record<string, string> = { line: 'a line boundary', word: 'a letter or digit', space: 'a space', mark: 'a mark' };
  return `after ${words[before!]}, before ${words[after!]}`;
}
