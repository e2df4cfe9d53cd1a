import type { NormalizedValue } from '../normalization/index.ts';
import type { CodeSandbox } from '../ports/code-sandbox.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { describeDisagreement, showValue } from './describe-disagreement.ts';
import { readCodeValues } from './read-code-values.ts';
import { attributeDefinitionKey, type SynthesizedExtractor } from './synthesized-extractor.ts';

/** A document the model extracted, to check code against: its text and the model's values. */
export interface CheckDocument {
  label: string;
  text: string;
  values: Readonly<Record<string, NormalizedValue>>;
}

/**
 * Runs each candidate function on every check document and keeps it only when it agrees with the
 * model on all of them: the same normalized value, or no value where the model found none — and a
 * value on at least one. The first disagreement, failure (a throw, a time or memory limit) or
 * refused quote rejects it, and its reason names the document. An accepted extractor keeps how its
 * quotes sat in the text (`quoteBoundaries`), so that a document where they sit otherwise goes to
 * the model.
 */
export async function checkExtractors(options: {
  sandbox: CodeSandbox;
  schema: RecordSchema;
  candidates: ReadonlyArray<{ attribute: string; source: string }>;
  documents: readonly CheckDocument[];
}): Promise<SynthesizedExtractor[]> {
  const { sandbox, schema, candidates, documents } = options;
  const verdicts = new Map(candidates.map((candidate) => [candidate.attribute, { problem: null as string | null, agreedValues: 0, boundaries: new Set<string>() }]));
  const extractors = candidates.map((candidate): SynthesizedExtractor => ({
    ...candidate, definition: definitionOf(schema, candidate.attribute), status: 'accepted', reason: null, checkedDocuments: documents.length, quoteBoundaries: [],
  }));
  for (const document of documents) {
    const open = extractors.filter((extractor) => verdicts.get(extractor.attribute)!.problem === null);
    if (open.length === 0) break;
    const reading = await readCodeValues(sandbox, open, schema, document.text);
    for (const extractor of open) {
      const verdict = verdicts.get(extractor.attribute)!;
      const model = document.values[extractor.attribute] ?? null;
      const left = reading.left.find((entry) => entry.attribute.name === extractor.attribute);
      if (!left) {
        verdict.problem = describeDisagreement(reading.record.values[extractor.attribute]!, model, document.label);
        if (verdict.problem === null) {
          verdict.agreedValues += 1;
          verdict.boundaries.add(reading.boundaries.get(extractor.attribute)!);
        }
      } else if (left.failed) {
        verdict.problem = `on ${document.label}: ${left.reason}`;
      } else if (model !== null) {
        verdict.problem = `found no value in ${document.label}, where the model read ${showValue(model)}`;
      }
    }
  }
  for (const extractor of extractors) {
    const verdict = verdicts.get(extractor.attribute)!;
    const problem = verdict.problem ?? (verdict.agreedValues === 0 ? `found no value in any of the ${documents.length} documents checked` : null);
    if (problem !== null) Object.assign(extractor, { status: 'rejected', reason: problem });
    else extractor.quoteBoundaries = [...verdict.boundaries].sort();
  }
  return extractors;
}

function definitionOf(schema: RecordSchema, name: string): string {
  const attribute = schema.attributes.find((candidate) => candidate.name === name);
  return attribute ? attributeDefinitionKey(attribute) : '';
}
