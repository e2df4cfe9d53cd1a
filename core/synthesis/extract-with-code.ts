import type { BatchDocument, BatchOutcome } from '../extraction/extract-record-batch.ts';
import type { PartRecord } from '../extraction/read-record-reply.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { CodeExtraction } from './code-extraction.ts';
import { readCodeValues, type CodeReading } from './read-code-values.ts';

/**
 * Extraction with synthesized extractors: code reads what it can of each document first; the
 * attributes it could not fill go to the model through `extract`, documents missing the same
 * attributes in one request that carries only those attributes; a document code filled entirely
 * costs no call. Each record is the two merged in schema order, code's values marked in their
 * evidence. A document the model then fails fails as a whole, as without code. A document the
 * `recheck` picks goes to the model whole, its record is the model's, and code's values are
 * compared with it.
 */
export async function extractWithCode(options: {
  code: CodeExtraction;
  schema: RecordSchema;
  documents: readonly BatchDocument[];
  extract: (schema: RecordSchema, documents: BatchDocument[]) => Promise<BatchOutcome[]>;
}): Promise<BatchOutcome[]> {
  const { code, schema, documents } = options;
  const readings: CodeReading[] = [];
  /** For each document the recheck picked, by position: what code read of it. */
  const rechecked = new Map<number, PartRecord['values']>();
  for (const [index, document] of documents.entries()) {
    const serving = code.recheck ? code.recheck.serving(code.extractors) : code.extractors;
    const reading = await readCodeValues(code.sandbox, serving, schema, document.text);
    for (const left of reading.left) {
      if (left.failed) code.onFallback?.({ document: document.documentName, attribute: left.attribute.name, reason: left.reason ?? 'failed' });
    }
    if (code.recheck && Object.keys(reading.record.values).length > 0 && code.recheck.picks(document.text)) {
      rechecked.set(index, reading.record.values);
      readings.push(modelOnly(schema));
    } else readings.push(reading);
  }
  const outcomes: BatchOutcome[] = new Array(documents.length);
  const groups = new Map<string, number[]>();
  readings.forEach((reading, index) => {
    // Code reads flat values only: a schema's child entities always go to the model.
    if (reading.left.length === 0 && !schema.entities?.length) {
      outcomes[index] = { record: { ...merge(schema, reading.record, undefined), usage: { promptTokens: 0, completionTokens: 0 }, cached: false, parts: 1 } };
      return;
    }
    const key = reading.left.map(({ attribute }) => attribute.name).join('\u0000');
    groups.set(key, [...groups.get(key) ?? [], index]);
  });
  for (const [key, indexes] of groups) {
    code.remainingSchemas ??= new Map();
    let remaining = code.remainingSchemas.get(key);
    if (!remaining) {
      remaining = { title: schema.title, attributes: readings[indexes[0]!]!.left.map(({ attribute }) => attribute), ...(schema.entities ? { entities: schema.entities } : {}) };
      code.remainingSchemas.set(key, remaining);
    }
    const extracted = await options.extract(remaining, indexes.map((index) => documents[index]!));
    extracted.forEach((outcome, position) => {
      const index = indexes[position]!;
      const codeValues = rechecked.get(index);
      if (codeValues && 'record' in outcome) code.recheck!.compare(documents[index]!.documentName, codeValues, outcome.record.values);
      outcomes[index] = 'error' in outcome ? outcome : { record: { ...outcome.record, ...merge(schema, readings[index]!.record, outcome.record) } };
    });
  }
  return outcomes;
}

/** A reading that leaves every attribute to the model (a document the recheck picked). */
function modelOnly(schema: RecordSchema): CodeReading {
  return {
    record: { values: Object.create(null) as PartRecord['values'], evidence: [], issues: [] },
    boundaries: new Map(),
    left: schema.attributes.map((attribute) => ({ attribute, reason: null, failed: false })),
  };
}

/** Code's values and the model's, each attribute from whichever read it, in schema order. */
function merge(schema: RecordSchema, code: PartRecord, model: PartRecord | undefined): PartRecord {
  const merged: PartRecord = { values: Object.create(null) as PartRecord['values'], evidence: [], issues: [...model?.issues ?? []] };
  for (const attribute of schema.attributes) {
    const fromCode = Object.hasOwn(code.values, attribute.name);
    const source = fromCode ? code : model;
    merged.values[attribute.name] = source?.values[attribute.name] ?? null;
    const evidence = source?.evidence.find((entry) => entry.attribute === attribute.name);
    if (evidence) merged.evidence.push(evidence);
  }
  if (model?.children) merged.children = model.children;
  return merged;
}
