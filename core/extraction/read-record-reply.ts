import { normalizeValue, type NormalizedValue } from '../normalization/index.ts';
import type { AttributeDefinition, RecordSchema } from '../schema/attribute-definition.ts';
import { boundedRaw } from './bounded-raw.ts';
import { quoteMatcher } from './quote-occurs-in.ts';
import { quoteStatesValue } from './quote-states-value.ts';
import type { AttributeEvidence, RecordIssue } from './record-issue.ts';

export interface PartRecord {
  values: Record<string, NormalizedValue>;
  evidence: AttributeEvidence[];
  issues: RecordIssue[];
}

/** Issue codes that mean "the model put the wrong kind of value here" and are worth a re-ask. */
const typeProblemCodes = new Set(['not_a_number', 'not_an_integer', 'not_a_boolean', 'not_a_date', 'not_a_string']);

/**
 * Turn one parsed model reply into typed values with evidence, checking every quote against the
 * text the model was shown. `strict` reports type problems so that `generateObject` re-asks once;
 * after the re-ask they become NULL plus an issue (seed 000 §3.2.2: values are validated by code).
 */
export function readRecordReply(
  reply: unknown,
  { schema, documentText, withEvidence, strict }: { schema: RecordSchema; documentText: string; withEvidence: boolean; strict: boolean },
): { value: PartRecord } | { problems: string[] } {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
    return { problems: ['the reply must be one JSON object with one key per schema property'] };
  }
  const object = reply as Record<string, unknown>;
  const quoteIsInDocument = quoteMatcher(documentText);
  const problems: string[] = [];
  // A null prototype: property names such as "__proto__" or "constructor" are ordinary keys here.
  const record: PartRecord = { values: Object.create(null) as PartRecord['values'], evidence: [], issues: [] };
  for (const attribute of schema.attributes) {
    let received: unknown = Object.hasOwn(object, attribute.name) ? object[attribute.name] ?? null : null;
    let quote: string | null = null;
    if (withEvidence && typeof received === 'object' && received !== null && !Array.isArray(received) && Object.hasOwn(received, 'value')) {
      const entry = received as { value?: unknown; quote?: unknown };
      received = entry.value ?? null;
      quote = typeof entry.quote === 'string' && entry.quote.trim() ? entry.quote : null;
    }
    const normalized = normalizeValue(received, attribute);
    const raw = boundedRaw(received);
    const evidence: AttributeEvidence = { attribute: attribute.name, value: null, raw, quote, status: 'missing', reason: null };
    record.evidence.push(evidence);
    if (normalized.issue) {
      if (strict && typeProblemCodes.has(normalized.issue.code)) problems.push(normalized.issue.message);
      record.issues.push({ attribute: attribute.name, code: normalized.issue.code, message: normalized.issue.message, received: raw });
      evidence.status = 'invalid';
      evidence.reason = normalized.issue.message;
      record.values[attribute.name] = null;
      continue;
    }
    if (normalized.value === null) {
      record.values[attribute.name] = null;
      continue;
    }
    if (withEvidence) {
      const refusal = quote === null
        ? { code: 'missing_quote' as const, reason: 'the model gave no quote for this value' }
        : !quoteIsInDocument(quote)
          ? { code: 'unsupported_quote' as const, reason: 'the quote does not occur in the document' }
          : valueNotInQuote(normalized.value, quote, attribute);
      if (refusal) {
        record.issues.push({ attribute: attribute.name, code: refusal.code, message: `${attribute.name}: ${refusal.reason}; value ${JSON.stringify(raw)} dropped`, received: raw });
        Object.assign(evidence, { status: 'unsupported', reason: refusal.reason });
        record.values[attribute.name] = null;
        continue;
      }
    }
    Object.assign(evidence, { value: normalized.value, status: withEvidence ? 'supported' : 'unchecked' });
    record.values[attribute.name] = normalized.value;
  }
  return problems.length ? { problems } : { value: record };
}

function valueNotInQuote(value: Exclude<NormalizedValue, null>, quote: string, attribute: AttributeDefinition) {
  const reason = quoteStatesValue(value, quote, attribute);
  return reason === null ? undefined : { code: 'value_not_in_quote' as const, reason };
}
