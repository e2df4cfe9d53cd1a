import type { AttributeEvidence } from './record-issue.ts';
import type { PartRecord } from './read-record-reply.ts';
import type { BatchEntry } from './render-batch-documents.ts';

/** What the swap check looks for in one document of a call, each index built on first need. */
interface DocumentValues {
  /** Whether a value's words occur in the document, whole words, case and punctuation aside. */
  statesText(text: string): boolean;
  /** Whether the document writes this number in digits ("1,200", "€120.00", "4"). */
  statesNumber(value: number): boolean;
}

/** Child items a record's values are gathered from, per entity: enough to tell two records apart. */
const mostItemsPerEntity = 8;
/** A string value longer than this is a model's wording, not a copy: it is no sign either way. */
const longestComparedText = 200;

/**
 * For the documents of one call, a check of each record of its reply: the id of another document
 * of the call that states more of the record's values than the record's own document does —
 * without quotes, the sign that the model gave this document another one's record (ids mixed up
 * in a shared reply). A value counts for a document when its words (or the model's own text for
 * it), its number in digits, or its date in a common writing occur there.
 *
 * A value no document of the call states (a model's normal form, "4" for "four-star"; a sum; a
 * paraphrase) is no sign either way; nor is a value every document states. So a record needs one
 * value that only another document states, and no more stated only by its own, to be refused: an
 * honest record rarely has a value its document does not state that another of the same call does,
 * and then the name or a figure of its own outweighs it. Booleans are never a sign.
 */
export function recordFromAnotherDocument(entries: readonly BatchEntry[]): (record: PartRecord, entry: BatchEntry) => string | undefined {
  // Each document is read once per call, and only when a record's values send the check to it.
  const read = new Map<BatchEntry, DocumentValues>();
  const valuesOf = (entry: BatchEntry) => {
    let values = read.get(entry);
    if (!values) read.set(entry, values = documentValues(entry.text));
    return values;
  };
  return (record, entry) => anotherDocument(record, entry, entries, valuesOf);
}

function anotherDocument(
  record: PartRecord, entry: BatchEntry, entries: readonly BatchEntry[], valuesOf: (entry: BatchEntry) => DocumentValues,
): string | undefined {
  const values = comparedValues(record);
  if (values.length === 0) return undefined;
  const own = valuesOf(entry);
  const stated = values.map((value) => states(own, value));
  const unstated = values.filter((_, index) => !stated[index]);
  if (unstated.length === 0) return undefined;
  for (const other of entries) {
    if (other === entry) continue;
    const elsewhere = valuesOf(other);
    const onlyThere = unstated.filter((value) => states(elsewhere, value)).length;
    if (onlyThere === 0) continue;
    const onlyHere = values.filter((value, index) => stated[index] && !states(elsewhere, value)).length;
    if (onlyThere > onlyHere) return other.id;
  }
  return undefined;
}

/** One value as the check compares it: a number, a date's parts, and words (the model's own text for it among them). */
interface ComparedValue {
  number?: number;
  date?: [year: string, month: string, day: string];
  words: string[];
}

function comparedValues(record: PartRecord): ComparedValue[] {
  const values: ComparedValue[] = [];
  const add = (evidence: readonly AttributeEvidence[]) => {
    for (const entry of evidence) {
      const compared = comparedValue(entry.value, entry.raw);
      if (compared) values.push(compared);
    }
  };
  add(record.evidence);
  for (const items of Object.values(record.children ?? {})) {
    for (const item of items.slice(0, mostItemsPerEntity)) add(item.evidence);
  }
  return values;
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

function comparedValue(value: AttributeEvidence['value'], raw: unknown): ComparedValue | undefined {
  if (value === null || typeof value === 'boolean') return undefined;
  // The model's own text beside the normal form: "four-star" states what 4 does not.
  const texts = [typeof value === 'string' ? value : undefined, typeof raw === 'string' && raw !== value ? raw : undefined];
  const words = [...new Set(texts.filter((text): text is string => text !== undefined && text.length <= longestComparedText).map(foldWords).filter(Boolean))];
  if (typeof value === 'number') return Number.isFinite(value) ? { number: Math.abs(value), words } : undefined;
  const date = isoDate.exec(value);
  if (date) return { date: [date[1]!, date[2]!, date[3]!], words };
  return words.length ? { words } : undefined;
}

function states(document: DocumentValues, value: ComparedValue): boolean {
  if (value.number !== undefined && document.statesNumber(value.number)) return true;
  if (value.words.some((words) => document.statesText(words))) return true;
  if (!value.date) return false;
  const [year, month, day] = value.date;
  const monthName = monthNames[Number(month) - 1];
  const dayNumber = String(Number(day));
  return [`${dayNumber} ${monthName} ${year}`, `${monthName} ${dayNumber} ${year}`,
    `${month} ${day} ${year}`, `${day} ${month} ${year}`, `${Number(month)} ${dayNumber} ${year}`, `${dayNumber} ${Number(month)} ${year}`]
    .some((writing) => document.statesText(writing));
}

const monthNames = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Lower case, diacritics dropped, every run of what is not a letter or a digit one space: "Hôtel-Zürich, 4*" → "hotel zurich 4". */
function foldWords(text: string): string {
  const plain = /[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text;
  return plain.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Digit runs with thousands groups or a decimal part ("1,234.50", "1.234,5"), each read both ways where it could be either. */
const writtenNumber = /\d+(?:[.,]\d+)*/g;

/** A document's `DocumentValues`: its folded words and the numbers it writes in digits, each read when first asked for. */
function documentValues(text: string): DocumentValues {
  let words: string | undefined;
  let numbers: Set<number> | undefined;
  return {
    statesText(folded) {
      words ??= ` ${foldWords(text)} `;
      return folded !== '' && words.includes(` ${folded} `);
    },
    statesNumber(value) {
      numbers ??= numbersWritten(text);
      return numbers.has(value);
    },
  };
}

function numbersWritten(text: string): Set<number> {
  const numbers = new Set<number>();
  for (const [written] of text.matchAll(writtenNumber)) {
    numbers.add(Number(written.replaceAll(',', '')));
    // "1.234" or "1.234,5" in a European writing; "1,5" as a decimal comma.
    if (/[.,]/.test(written)) numbers.add(Number(written.replaceAll('.', '').replace(',', '.')));
  }
  numbers.delete(Number.NaN);
  return numbers;
}
