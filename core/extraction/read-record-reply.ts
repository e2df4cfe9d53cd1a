import { normalizeValue, type NormalizedValue } from '../normalization/index.ts';
import type { AttributeDefinition, ChildEntity, RecordSchema } from '../schema/attribute-definition.ts';
import { boundedRaw } from './bounded-raw.ts';
import { longestQuote, storedQuote } from './longest-quote.ts';
import type { QuoteInDocument } from './quote-in-document.ts';
import { quoteLocator } from './quote-occurs-in.ts';
import { quoteStatesValue } from './quote-states-value.ts';
import type { ChildRecord, ChildRecords } from './child-record.ts';
import type { AttributeEvidence, RecordIssue } from './record-issue.ts';

export interface PartRecord {
  values: Record<string, NormalizedValue>;
  evidence: AttributeEvidence[];
  issues: RecordIssue[];
  /** The items of each child entity, when the schema declares any (see `ChildEntity`). */
  children?: ChildRecords;
}

/** Issue codes that mean "the model put the wrong kind of value here" and are worth a re-ask. */
const typeProblemCodes = new Set(['not_a_number', 'not_an_integer', 'not_a_boolean', 'not_a_date', 'not_a_string']);

/**
 * Turn one parsed model reply into typed values with evidence, checking every quote against the
 * text the model was shown. `strict` reports type problems and quotes longer than `longestQuote`
 * so that `generateObject` re-asks once; after the re-ask they become NULL plus an issue (S-RAG
 * paper §3.2.2: values are validated by code). A property the reply leaves out is a problem in
 * both modes: the output schema requires every one (null when the document does not state it), so
 * a reply without it is not an answer — read as null, it would say "the document does not state
 * it" of a value nobody looked for, and the record would count as done. After the re-ask it fails
 * the document, which a later run can try again.
 */
export function readRecordReply(
  reply: unknown,
  { schema, documentText, withEvidence, strict }: { schema: RecordSchema; documentText: string; withEvidence: boolean; strict: boolean },
): { value: PartRecord } | { problems: string[] } {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
    return { problems: ['the reply must be one JSON object with one key per schema property'] };
  }
  const object = reply as Record<string, unknown>;
  const context: ReadContext = { locateQuote: quoteLocator(documentText), withEvidence, strict, problems: [] };
  const record = readValues(object, schema.attributes, context);
  if (schema.entities?.length) {
    record.children = Object.create(null) as ChildRecords;
    for (const entity of schema.entities) {
      record.children[entity.name] = readChildItems(Object.hasOwn(object, entity.name) ? object[entity.name] : undefined, entity, record.issues, context);
    }
  }
  return context.problems.length ? { problems: context.problems } : { value: record };
}

interface ReadContext {
  /** Where a quote is in the text the model was shown; undefined when it is not there. */
  locateQuote: (quote: string) => QuoteInDocument | undefined;
  withEvidence: boolean;
  strict: boolean;
  /** Where type problems (worth a re-ask) are collected. */
  problems: string[];
}

/** The values of `attributes` in `object`, normalized, each with its quote checked. */
function readValues(object: Record<string, unknown>, attributes: AttributeDefinition[], { locateQuote, withEvidence, strict, problems }: ReadContext): PartRecord {
  // A null prototype: property names such as "__proto__" or "constructor" are ordinary keys here.
  // Set on an empty object, not made by Object.create(null): V8 keeps that one a hash table, grown
  // again and again as a record's values are added (1.7 KB for 14 of them, against 0.4).
  const record: PartRecord = { values: Object.setPrototypeOf({}, null) as PartRecord['values'], evidence: [], issues: [] };
  // A loop, not filter(…).map(…): an empty list and one with names are arrays of different kinds,
  // and the first reply that left something out sent the optimized function back to the
  // interpreter, to be optimized again (one of the costliest compiles of a run).
  let leftOut: string[] | undefined;
  // Index loops, not for…of: the first thousands of records are read by V8's interpreter and
  // baseline code, where every step of an iterator allocates its result.
  for (let index = 0; index < attributes.length; index += 1) if (!Object.hasOwn(object, attributes[index]!.name)) (leftOut ??= []).push(attributes[index]!.name);
  if (leftOut) problems.push(leftOutProblem(leftOut, attributes.length));
  for (let index = 0; index < attributes.length; index += 1) {
    const attribute = attributes[index]!;
    if (!Object.hasOwn(object, attribute.name)) continue;
    let received: unknown = object[attribute.name] ?? null;
    let quote: string | null = null;
    if (withEvidence && typeof received === 'object' && received !== null && !Array.isArray(received) && Object.hasOwn(received, 'value')) {
      const entry = received as { value?: unknown; quote?: unknown };
      received = entry.value ?? null;
      quote = typeof entry.quote === 'string' && !isBlank(entry.quote) ? entry.quote : null;
    }
    const normalized = normalizeValue(received, attribute);
    const raw = boundedRaw(received);
    const evidence: AttributeEvidence = { attribute: attribute.name, value: null, raw, quote: quote === null ? null : storedQuote(quote), status: 'missing', reason: null };
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
      if (strict && quote !== null && quote.length > longestQuote) {
        problems.push(`${attribute.name}: the quote is ${quote.length.toLocaleString('en-US')} characters long; quote at most ${longestQuote} characters, the shortest passage that states the value`);
      }
      const where = quote === null || quote.length > longestQuote ? undefined : locateQuote(quote);
      const refusal = quote === null
        ? { code: 'missing_quote' as const, reason: 'the model gave no quote for this value' }
        : quote.length > longestQuote
          ? { code: 'quote_too_long' as const, reason: `the quote is ${quote.length.toLocaleString('en-US')} characters long, more than the ${longestQuote} the prompt allows: it does not show where the value is stated` }
          : !where
          ? { code: 'unsupported_quote' as const, reason: 'the quote does not occur in the document' }
          : valueNotInQuote(normalized.value, quote, attribute, where);
      if (refusal) {
        record.issues.push({ attribute: attribute.name, code: refusal.code, message: `${attribute.name}: ${refusal.reason}; value ${JSON.stringify(raw)} dropped`, received: raw });
        evidence.status = 'unsupported';
        evidence.reason = refusal.reason;
        record.values[attribute.name] = null;
        continue;
      }
    }
    evidence.value = normalized.value;
    evidence.status = withEvidence ? 'supported' : 'unchecked';
    record.values[attribute.name] = normalized.value;
  }
  return record;
}

/**
 * The items of one child entity, each read as a record of the entity's attributes (normalized,
 * its quotes checked against the same text); their issues go onto `issues`, named
 * `rooms[2].price_per_night`. An item none of whose values survives — all null, or every one
 * refused — is left out: a row of NULLs would count as an item nothing in the document supports.
 * A missing list is a problem, as a missing property is (see `readRecordReply`); something else
 * where the list belongs is worth a re-ask, after which the entity has no items and an issue says
 * why. null is read as no items.
 */
function readChildItems(received: unknown, entity: ChildEntity, issues: RecordIssue[], context: ReadContext): ChildRecord[] {
  const items: ChildRecord[] = [];
  if (received === null) return items;
  const slip = (attribute: string, code: 'not_a_list' | 'not_an_item', message: string, value: unknown) => {
    if (context.strict) context.problems.push(message);
    else issues.push({ attribute, code, message, received: boundedRaw(value ?? null) });
  };
  if (received === undefined) {
    // Left out, as a property can be: a problem after the re-ask too (see `readRecordReply`).
    context.problems.push(`${entity.name}: expected a list of items (an empty list when the document lists none), got nothing`);
    return items;
  }
  if (!Array.isArray(received)) {
    slip(entity.name, 'not_a_list', `${entity.name}: expected a list of items (an empty list when the document lists none), got ${kindOf(received)}`, received);
    return items;
  }
  for (const [index, element] of received.entries()) {
    const label = `${entity.name}[${index + 1}]`;
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      slip(label, 'not_an_item', `${label}: expected an object with one key per attribute of an item, got ${kindOf(element)}`, element);
      continue;
    }
    const problemsBefore = context.problems.length;
    const item = readValues(element as Record<string, unknown>, entity.attributes, context);
    for (let at = problemsBefore; at < context.problems.length; at += 1) context.problems[at] = `${label}: ${context.problems[at]}`;
    issues.push(...item.issues.map((issue) => ({ ...issue, attribute: `${label}.${issue.attribute}`, message: `${label}.${issue.message}` })));
    if (Object.values(item.values).every((value) => value === null)) continue;
    items.push({ values: item.values, evidence: item.evidence });
  }
  return items;
}

/** Whether a text is empty or whitespace only (`trim()` would leave nothing), without copying it when it starts with a visible ASCII character, as quotes do. */
function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  return !(first > 32 && first < 127) && text.trim() === '';
}

/** One line for the properties a reply (or an item of a list) left out, with what to do instead. */
function leftOutProblem(names: readonly string[], of: number): string {
  const shown = names.length > 5 ? [...names.slice(0, 5), `and ${names.length - 5} more`] : names;
  const what = names.length === 1 ? `property ${names[0]}` : `${names.length} of its ${of} properties (${shown.join(', ')})`;
  return `the reply leaves out ${what}: give every property, null when the document does not state it`;
}

/** "a string", "null", "a list": what a reply held where something else belonged. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function valueNotInQuote(value: Exclude<NormalizedValue, null>, quote: string, attribute: AttributeDefinition, where: QuoteInDocument) {
  const reason = quoteStatesValue(value, quote, attribute, where);
  return reason === null ? undefined : { code: 'value_not_in_quote' as const, reason };
}
