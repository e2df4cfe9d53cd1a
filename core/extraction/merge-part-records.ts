import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { PartRecord } from './read-record-reply.ts';
import type { AttributeEvidence } from './record-issue.ts';

const statusRank: Record<AttributeEvidence['status'], number> = {
  supported: 5, unchecked: 4, conflict: 3, invalid: 2, unsupported: 1, missing: 0,
};

/**
 * Merge the records read from the parts of a long document, per attribute: a value beats a
 * missing one; when parts disagree, the first part's value is kept and the disagreement is
 * recorded as a `conflicting_values` issue rather than silently overwritten. Child entities' items
 * are concatenated in part order.
 */
export function mergePartRecords(schema: RecordSchema, parts: PartRecord[]): PartRecord {
  if (parts.length === 1) return parts[0]!;
  const merged: PartRecord = { values: Object.create(null) as PartRecord['values'], evidence: [], issues: [] };
  for (const attribute of schema.attributes) {
    const name = attribute.name;
    const candidates = parts.map((part, index) => ({ index, evidence: part.evidence.find((entry) => entry.attribute === name)! }));
    const withValue = candidates.filter(({ evidence }) => evidence.value !== null);
    for (const part of parts) merged.issues.push(...part.issues.filter((issue) => issue.attribute === name && withValue.length === 0));
    if (withValue.length === 0) {
      const best = candidates.reduce((left, right) => (statusRank[right.evidence.status] > statusRank[left.evidence.status] ? right : left));
      merged.evidence.push(best.evidence);
      merged.values[name] = null;
      continue;
    }
    const chosen = withValue[0]!.evidence;
    const distinct = [...new Set(withValue.map(({ evidence }) => JSON.stringify(evidence.value)))];
    if (distinct.length > 1) {
      const listing = withValue.map(({ index, evidence }) => `part ${index + 1}: ${JSON.stringify(evidence.value)}`).join(', ');
      merged.issues.push({ attribute: name, code: 'conflicting_values', message: `${name}: parts of the document disagree (${listing}); kept part ${withValue[0]!.index + 1}`, received: withValue.map(({ evidence }) => evidence.value) });
      merged.evidence.push({ ...chosen, status: 'conflict', reason: `parts disagree: ${listing}` });
    } else {
      merged.evidence.push(chosen);
    }
    merged.values[name] = chosen.value;
  }
  if (schema.entities?.length) {
    // A list split across parts continues from part to part: its items are the parts' in order.
    merged.children = Object.fromEntries(schema.entities.map((entity) => [entity.name, parts.flatMap((part) => part.children?.[entity.name] ?? [])]));
  }
  return merged;
}
