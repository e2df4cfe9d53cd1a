import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { BatchEntry } from './render-batch-documents.ts';
import { batchIdKey } from './batch-id-key.ts';
import { quoteMatcher } from './quote-occurs-in.ts';
import { readRecordReply, type PartRecord } from './read-record-reply.ts';
import { recordFromAnotherDocument } from './record-from-another-document.ts';

/**
 * What a batch reply said: either records for exactly the ids sent (each readable, or with the
 * problems that send it back for a call of its own), or a mismatch between the ids sent and the
 * ids returned, which the caller answers by splitting the batch.
 */
export type BatchReading =
  | { kind: 'records'; records: Map<string, { value: PartRecord } | { problems: string[] }> }
  | { kind: 'mismatch'; reason: string };

/**
 * Read a parsed batch reply. A reply that is not `{"records": [...]}` at all is a problem (the
 * model is asked again); a reply whose ids are not exactly the ids sent is a valid answer of kind
 * `mismatch`: re-asking would invite made-up padding, so the caller splits the batch instead. So
 * is a record quoting another document of the call, or without evidence a record whose values
 * another document of the call states more of than its own (see `recordFromAnotherDocument`).
 */
export function readBatchReply(
  reply: unknown,
  { schema, entries, withEvidence }: { schema: RecordSchema; entries: BatchEntry[]; withEvidence: boolean },
): { value: BatchReading } | { problems: string[] } {
  const list = Array.isArray(reply) ? reply : (reply as { records?: unknown } | null)?.records;
  if (!Array.isArray(list)) return { problems: ['the reply must be {"records": [...]} with one record per document'] };
  const idKey = batchIdKey(schema);
  const expected = new Set(entries.map((entry) => entry.id));
  const seen = new Map<string, Record<string, unknown>>();
  for (const element of list) {
    const id = typeof element === 'object' && element !== null && Object.hasOwn(element, idKey) ? (element as Record<string, unknown>)[idKey] : undefined;
    const key = typeof id === 'number' ? String(id) : id;
    if (typeof key !== 'string') return { value: { kind: 'mismatch', reason: `a record has no "${idKey}"` } };
    if (!expected.has(key)) return { value: { kind: 'mismatch', reason: `the reply has a record for id "${key}", which was not sent` } };
    if (seen.has(key)) return { value: { kind: 'mismatch', reason: `the reply has two records for id "${key}"` } };
    seen.set(key, element as Record<string, unknown>);
  }
  const missing = entries.filter((entry) => !seen.has(entry.id)).map((entry) => entry.id);
  if (missing.length) return { value: { kind: 'mismatch', reason: `the reply has no record for id${missing.length > 1 ? 's' : ''} ${missing.map((id) => `"${id}"`).join(', ')}` } };
  const records = new Map<string, { value: PartRecord } | { problems: string[] }>();
  const fromAnotherDocument = withEvidence ? undefined : recordFromAnotherDocument(entries);
  // The id is no property of the schema unless both "id" and "_document" are: only then is a copy without it read.
  const idIsProperty = [...schema.attributes, ...(schema.entities ?? [])].some((named) => named.name === idKey);
  for (const entry of entries) {
    const element = seen.get(entry.id)!;
    const record = idIsProperty ? Object.fromEntries(Object.entries(element).filter(([key]) => key !== idKey)) : element;
    const read = readRecordReply(record, { schema, documentText: entry.text, withEvidence, strict: true });
    const quoted = 'value' in read ? quotedElsewhere(read.value, entry, entries) : undefined;
    if (quoted) return { value: { kind: 'mismatch', reason: `the record for id "${entry.id}" quotes document "${quoted}": ids mixed up` } };
    const stated = 'value' in read && fromAnotherDocument ? fromAnotherDocument(read.value, entry) : undefined;
    if (stated) return { value: { kind: 'mismatch', reason: `the record for id "${entry.id}" holds values document "${stated}" states and its own does not: ids mixed up` } };
    records.set(entry.id, read);
  }
  return { value: { kind: 'records', records } };
}

/**
 * The id of another document of the call that holds a quote the record's own document does not:
 * the model gave this document another one's record. Its values would be refused one by one (the
 * quotes are not in this document), so the true ones would be lost; the caller splits instead.
 */
function quotedElsewhere(record: PartRecord, entry: BatchEntry, entries: readonly BatchEntry[]): string | undefined {
  const foreign = record.evidence.filter((evidence) => evidence.status === 'unsupported' && evidence.quote !== null
    && record.issues.some((issue) => issue.attribute === evidence.attribute && issue.code === 'unsupported_quote'));
  if (foreign.length === 0) return undefined;
  for (const other of entries) {
    if (other === entry) continue;
    const occurs = quoteMatcher(other.text);
    if (foreign.some((evidence) => occurs(evidence.quote!))) return other.id;
  }
  return undefined;
}
