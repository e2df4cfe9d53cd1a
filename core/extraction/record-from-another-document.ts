import type { AttributeEvidence } from './record-issue.ts';
import type { PartRecord } from './read-record-reply.ts';
import type { BatchEntry } from './render-batch-documents.ts';

/** What the swap check looks for in one document of a call, each index built on first need. */
interface DocumentValues {
  /** Whether the text occurs in the document as it is written, case aside, not inside a longer word or number. */
  statesVerbatim(text: string): boolean;
  /** Whether a folded phrase (`foldWords`, a space each side) occurs in the document, whole words, case and punctuation aside. */
  statesText(phrase: string): boolean;
  /** Whether the document writes this number in digits ("1,200", "€120.00", "4"). */
  statesNumber(value: number): boolean;
}

/** Values another document states by chance, among many neither document states (misread, converted), short of which no swap is read. */
const chanceHits = 3;
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
 * paraphrase) is no sign either way; nor is a value both documents state. So another document must
 * state more of the record's values than its own does, and either at least as many as neither of
 * them states or `chanceHits` of them: a model that misread or converted most values of a record
 * hits a number of another document now and then (1 or 2 of 11 values on the generated hotel
 * pages), while a record given to the wrong document had 5 to 11 of its values there. Booleans are
 * never a sign.
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
    const neither = unstated.length - onlyThere;
    if (onlyThere > onlyHere && (onlyThere >= neither || onlyThere >= chanceHits)) return other.id;
  }
  return undefined;
}

/**
 * One value as the check compares it: the value and the model's own text for it (`raw`), and,
 * folded on first need, the phrases that state it, each padded with a space either side: the
 * value's words, the model's text ("four-star" states what 4 does not), a date's common writings.
 * Most values are found in their own document by the first phrase, so the rest are rarely built.
 */
interface ComparedValue {
  value: string | number;
  raw: unknown;
  first?: string;
  others?: string[];
}

function comparedValues(record: PartRecord): ComparedValue[] {
  const values: ComparedValue[] = [];
  const add = (evidence: readonly AttributeEvidence[]) => {
    for (const { value, raw } of evidence) {
      if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) values.push({ value, raw });
    }
  };
  add(record.evidence);
  for (const items of Object.values(record.children ?? {})) {
    for (const item of items.slice(0, mostItemsPerEntity)) add(item.evidence);
  }
  return values;
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const monthNames = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function states(document: DocumentValues, compared: ComparedValue): boolean {
  const { value, raw } = compared;
  // As the model copied it, most often: no folding of the document needed.
  if (document.statesVerbatim(typeof raw === 'string' ? raw : String(value))) return true;
  compared.first ??= phrase(typeof value === 'number' ? String(Math.abs(value)) : value);
  if (compared.first !== '' && document.statesText(compared.first)) return true;
  if (!compared.others) {
    const others: string[] = [];
    const add = (text: string) => {
      const folded = phrase(text);
      if (folded !== '' && folded !== compared.first && !others.includes(folded)) others.push(folded);
    };
    if (typeof raw === 'string') add(raw);
    const date = typeof value === 'string' ? isoDate.exec(value) : null;
    if (date) {
      const [year, month, day] = [date[1]!, date[2]!, date[3]!];
      const [monthName, monthNumber, dayNumber] = [monthNames[Number(month) - 1], String(Number(month)), String(Number(day))];
      for (const writing of [`${dayNumber} ${monthName} ${year}`, `${monthName} ${dayNumber} ${year}`, `${month} ${day} ${year}`,
        `${day} ${month} ${year}`, `${monthNumber} ${dayNumber} ${year}`, `${dayNumber} ${monthNumber} ${year}`]) add(writing);
    }
    compared.others = others;
  }
  return compared.others.some((other) => document.statesText(other)) || (typeof value === 'number' && document.statesNumber(Math.abs(value)));
}

/** A text as the documents are searched for it: folded (`foldWords`) with a space either side; '' for none or one too long to be a copy. */
function phrase(text: string): string {
  const folded = text.length <= longestComparedText ? foldWords(text) : '';
  return folded === '' ? '' : ` ${folded} `;
}

/**
 * Lower case, diacritics dropped, every run of what is not a letter or a digit one space, except a
 * mark between two digits: "Hôtel-Zürich, 4*" → "hotel zurich 4", "Rated 8.7, from 1,250" → "rated 8.7 from 1,250".
 */
function foldWords(text: string): string {
  const folded = /[^\x00-\x7f]/.test(text)
    ? text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[.,](?!\d)|(?<!\d)[.,]|[^\p{L}\p{N}.,]+/gu, ' ')
    : text.toLowerCase().replace(/[.,](?!\d)|(?<!\d)[.,]|[^a-z0-9.,]+/g, ' ');
  return folded.replace(/ {2,}/g, ' ').trim();
}

/** Digit runs with thousands groups or a decimal part ("1,234.50", "1.234,5"), each read both ways where it could be either. */
const writtenNumber = /\d+(?:[.,]\d+)*/g;

/** A document's `DocumentValues`: its text in lower case, folded, and the numbers it writes in digits, each read when first asked for. */
function documentValues(text: string): DocumentValues {
  let lower: string | undefined;
  let words: string | undefined;
  let numbers: Set<number> | undefined;
  return {
    statesVerbatim(candidate) {
      if (candidate === '' || candidate.length > longestComparedText) return false;
      lower ??= text.toLowerCase();
      return occursAsWhole(lower, candidate.toLowerCase());
    },
    statesText(phrase) {
      words ??= ` ${foldWords(text)} `;
      return words.includes(phrase);
    },
    statesNumber(value) {
      numbers ??= numbersWritten(text);
      return numbers.has(value);
    },
  };
}

const wordCharacter = /[\p{L}\p{N}]/u;
const digit = /\d/;

/**
 * Whether `needle` occurs in `haystack` with nothing joined to it on either side: no letter or
 * digit, nor a mark between digits ("2" is not in "25", nor "8" in "8.7", nor "Inn" in "Innsbruck").
 */
function occursAsWhole(haystack: string, needle: string): boolean {
  const joined = (at: number, outward: -1 | 1) => {
    const next = haystack[at] ?? ' ';
    return wordCharacter.test(next) || ((next === '.' || next === ',') && digit.test(haystack[at + outward] ?? ' '));
  };
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if ((!wordCharacter.test(needle[0]!) || !joined(at - 1, -1)) && (!wordCharacter.test(needle[needle.length - 1]!) || !joined(end, 1))) return true;
  }
  return false;
}

function numbersWritten(text: string): Set<number> {
  const numbers = new Set<number>();
  for (const [written] of text.matchAll(writtenNumber)) {
    numbers.add(Number(written.replace(/,/g, '')));
    // "1.234" or "1.234,5" in a European writing; "1,5" as a decimal comma.
    if (/[.,]/.test(written)) numbers.add(Number(written.replace(/\./g, '').replace(',', '.')));
  }
  numbers.delete(Number.NaN);
  return numbers;
}
