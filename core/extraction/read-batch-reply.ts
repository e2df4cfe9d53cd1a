import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { BatchEntry } from './render-batch-documents.ts';
import { batchIdKey } from './batch-id-key.ts';
import { readRecordReply, type PartRecord } from './read-record-reply.ts';

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
 * `mismatch`: re-asking would invite made-up padding, so the caller splits the batch instead.
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
  for (const entry of entries) {
    const record = Object.fromEntries(Object.entries(seen.get(entry.id)!).filter(([key]) => key !== idKey));
    records.set(entry.id, readRecordReply(record, { schema, documentText: entry.text, withEvidence, strict: true }));
  }
  return { value: { kind: 'records', records } };
}
