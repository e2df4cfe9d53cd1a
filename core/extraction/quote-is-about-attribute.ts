import type { NumberInText } from '../normalization/numbers-in-text.ts';
import { numbersInText } from '../normalization/numbers-in-text.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { attributeVocabulary, wordRole, type AttributeVocabulary } from './attribute-vocabulary.ts';
import { judgeNumberInSentence, words } from './judge-number-in-sentence.ts';
import { numbersStatingValue } from './numbers-stating-value.ts';
import type { FoldedDocument, QuoteInDocument } from './quote-in-document.ts';
import { sentenceAround, type FoldedSentence } from './sentence-around.ts';
import { stemForms, wordStem } from './word-stem.ts';
import { isDigits } from '../text/is-digits.ts';

/** How many of a document's best sentences for an attribute are read for a number that answers it better. */
const mostSentencesRead = 12;
/** How many words of the attribute's a document is searched for, at most, per attribute: a bound on a huge document. */
const mostWordHits = 4000;

/** How much more of the attribute's words a rival's sentence must use to outweigh a quote's number, by how the number is named. */
const margins = { named: Infinity, unnamed: 0, open: 2 } as const;

/**
 * A year named by the attribute's words ("In fiscal 2022") is outweighed by a sentence that uses one
 * more of its name's words ("Annual report for the fiscal year 2023"): a document names many years,
 * its own most fully. Any other named number is never outweighed: prose that says more of a thing
 * ("fourteen teams qualified to join the hosts") is not for that the better answer ("Teams | 16").
 */
const namedYearMargin = 3;

/** What a number of the quote stands on: how it is named, its sentence's score, its year. */
interface Footing {
  kind: keyof typeof margins;
  score: number;
  year?: number;
  yearValue: boolean;
  topic: readonly string[];
}

/**
 * Whether a number value's quote, in the sentence or line it sits in, is about the attribute and
 * not only states the value; null when nothing says otherwise, else the reason. Judged from the
 * attribute's own definition (`attributeVocabulary`) and the words around each number of the
 * quote's span that states the value (`judgeNumberInSentence`), never by a model call:
 * - a number that counts something else, is per something else, sits next to what the description
 *   excludes, or is the figure another is compared with, is refused;
 * - a number tied to a year is refused when the document ties a number of the same kind to a later
 *   one ("In fiscal 2022, revenue was …" in a report of 2023): a document reports its latest period;
 * - otherwise the number is weighed against the document's other sentences: it is refused when a
 *   sentence names the attribute next to another number of its kind (`named`) and uses enough
 *   more of the attribute's words (3 counts per name word, 1 per description word): 2 more than a
 *   quote whose clause names it nowhere ("a project budget of $2.3M" where "Expected salary:
 *   $95,000" stands elsewhere), as many as one whose clause names it but not the number ("Revenue
 *   from the Devices segment was $4,052 million" where "Revenue: $5.2 billion" stands elsewhere) or
 *   whose year is not the document's latest, 3 more than a year the quote names so too
 *   (`namedYearMargin`); a number the quote names is otherwise never outweighed. When such a
 *   sentence states the value too, named so, it is kept.
 * An attribute whose name says nothing ("value") is not judged. Each check reads the quote's
 * sentences; only an undecided one reads more of the document, through indexes made once per
 * document and attribute.
 */
export function quoteIsAboutAttribute(value: number, where: QuoteInDocument, attribute: AttributeDefinition, literals: readonly string[]): string | null {
  const vocabulary = attributeVocabulary(attribute);
  if (vocabulary.strong.length === 0) return null;
  let against: string | undefined;
  // Made when the first footing is found; index loops, not for…of (an iterator step allocates in
  // V8's interpreter and baseline code, which run the first thousands of records).
  let footings: Footing[] | undefined;
  for (let spanIndex = 0; spanIndex < where.spans.length; spanIndex += 1) {
    const span = where.spans[spanIndex]!;
    const sentence = sentenceAround(where.document, span);
    const numbers = literalsWithin(sentence.text, span.start - sentence.offset, span.end - sentence.offset, literals, value);
    for (let numberIndex = 0; numberIndex < numbers.length; numberIndex += 1) {
      const number = numbers[numberIndex]!;
      const yearValue = isYearWrittenAt(sentence.text, number.start, number.end, value);
      const judgement = judgeNumberInSentence(number, sentence, attribute, vocabulary);
      if (judgement.verdict === 'against') {
        against ??= judgement.reason;
        continue;
      }
      const later = judgement.year === undefined || yearValue ? undefined : laterYearStated(where.document, attribute, vocabulary, value, judgement.year);
      if (later !== undefined) {
        against ??= `its number is for ${judgement.year}, and the document states one for ${later}`;
        continue;
      }
      const kind = judgement.verdict === 'open' ? 'open' : judgement.named ? 'named' : 'unnamed';
      (footings ??= []).push({ kind, score: judgement.score, year: judgement.year, yearValue, topic: judgement.verdict === 'open' ? judgement.topic : noTopic });
    }
  }
  if (footings === undefined) return against === undefined ? null : `the quote is not about ${words(attribute.name)}: ${against}`;
  if (footings.length > 1) footings.sort(byRank);
  let refusal: string | undefined;
  for (let index = 0; index < footings.length && index < 3; index += 1) {
    const footing = footings[index]!;
    const better = betterSentence(where.document, attribute, vocabulary, value, footing);
    if (!better) return null;
    refusal ??= footing.kind === 'open'
      ? `the quote speaks of ${footing.topic.length ? `"${footing.topic.join(' ')}"` : 'something else'}, not of ${words(attribute.name)}, which the document states elsewhere ("${better}")`
      : `the document states ${words(attribute.name)} elsewhere, more plainly ("${better}")`;
  }
  if (refusal) return refusal;
  return against === undefined ? null : `the quote is not about ${words(attribute.name)}: ${against}`;
}

/**
 * Where the quote's numbers that state the value (their digits or number words, as the quote
 * writes them) are in the folded sentence, between `from` and `to`: found as text, not read again,
 * since the quote check already read them. Whole numbers only: "1" is not found in "1,000" or "21".
 */
function literalsWithin(text: string, from: number, to: number, literals: readonly string[], value: number): readonly NumberInText[] {
  let found: NumberInText[] | undefined;
  for (let index = 0; index < literals.length; index += 1) {
    const literal = literals[index]!;
    // Each literal once: a quote may state the value twice in the same digits.
    if (literals.indexOf(literal) < index) continue;
    const endsInLetter = isLetterAt(literal, literal.length - 1);
    for (let at = text.indexOf(literal, from); at >= 0 && at + literal.length <= to; at = text.indexOf(literal, at + 1)) {
      const end = at + literal.length;
      if (isLetterAt(text, at - 1) || isNumeralAt(text, at - 1) || (isNumberMarkAt(text, at - 1) && isNumeralCode(text.charCodeAt(at - 2)))) continue;
      if (isNumeralAt(text, end) || (endsInLetter && isLetterAt(text, end)) || (isNumberMarkAt(text, end) && isNumeralCode(text.charCodeAt(end + 1)))) continue;
      (found ??= []).push({ written: literal, value, start: at, end });
    }
  }
  return found ?? noNumbers;
}

/** What `literalsWithin` gives when it finds none, and a footing's topic when it has none: read, never changed. */
const noNumbers: readonly NumberInText[] = [];
const noTopic: readonly string[] = [];

/** Whether the character at `index` is a letter (`\p{L}`); false outside the text. ASCII by code, any other by its Unicode property. */
function isLetterAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (Number.isNaN(code)) return false;
  if (code < 128) return (code | 32) >= 97 && (code | 32) <= 122;
  return /\p{L}/u.test(text[index]!);
}

/** Whether the character at `index` is a number character (`\p{N}`); false outside the text. */
function isNumeralAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (Number.isNaN(code)) return false;
  if (code < 128) return isNumeralCode(code);
  return /\p{N}/u.test(text[index]!);
}

/** Whether the character at `index` is ".", "," or "/", a mark that joins the digits of one number. */
function isNumberMarkAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 46 || code === 44 || code === 47;
}

/** An ASCII digit; false past either end of the text (NaN). */
function isNumeralCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The most favourable footing first: named, then named in the clause only, then open; a higher score first. */
function rank(footing: Footing): number {
  return (footing.kind === 'named' ? 2000 : footing.kind === 'unnamed' ? 1000 : 0) + footing.score;
}

/** `rank`, higher first, for `sort`: one function, not a closure made per check. */
function byRank(left: Footing, right: Footing): number {
  return rank(right) - rank(left);
}

/** Whether the number written at `start` to `end` of `text` ("1988", not "1,988") is a year; cut out only when it can be one. */
function isYearWrittenAt(text: string, start: number, end: number, value: number): boolean {
  return end - start === 4 && Number.isInteger(value) && value >= 1800 && value <= 2100 && isDigits(text.slice(start, end), 4, 4);
}

/**
 * A number of the document that could be the attribute's value instead: another number, a year
 * when the value is one and not a year when it is not (9 years is no rival of a birth year).
 */
function isRival(number: NumberInText, value: number, yearValue: boolean, text: string): boolean {
  if (number.value === value || number.value === 0) return false;
  return isYearWrittenAt(text, number.start, number.end, number.value) === yearValue;
}

interface SentenceHits {
  /** Where in the folded document the sentence's name words are (the first few). */
  strongAt: number[];
  strong: number;
  score: number;
}

/** How many name words of one sentence are kept, and how far around each its rival numbers are read. */
const mostStrongHitsKept = 4;
const charactersReadAroundHit = 90;

/** Per folded document and attribute, the sentences that use the attribute's words (see `sentenceHits`). */
const hitsCache = new WeakMap<FoldedDocument, Map<AttributeDefinition, SentenceHits[]>>();

/**
 * The sentences of the document that use the attribute's name words, best first: each of them
 * counts 3, each description word 1, words counted once per sentence. The name words are found by
 * searching the folded document for each stem and its forms; only the sentences holding one are
 * then read word by word for the description's, so a common description word costs nothing.
 */
function sentenceHits(document: FoldedDocument, attribute: AttributeDefinition, vocabulary: AttributeVocabulary): SentenceHits[] {
  let byAttribute = hitsCache.get(document);
  if (!byAttribute) hitsCache.set(document, (byAttribute = new Map()));
  const cached = byAttribute.get(attribute);
  if (cached) return cached;
  const sentences = new Map<number, number[]>();
  let hits = 0;
  for (const stem of vocabulary.strong) {
    for (const form of stemForms(stem)) {
      for (let at = document.text.indexOf(form); at >= 0 && hits < mostWordHits; at = document.text.indexOf(form, at + form.length)) {
        if (at > 0 && /[\p{L}\p{N}]/u.test(document.text[at - 1]!)) continue;
        const word = /^\p{L}+/u.exec(document.text.slice(at, at + 40))?.[0] ?? '';
        if (wordRole(vocabulary, word) !== 'strong') continue;
        hits += 1;
        const key = sentenceIndex(document, at);
        const found = sentences.get(key) ?? [];
        if (found.length < mostStrongHitsKept) found.push(at);
        sentences.set(key, found);
      }
    }
  }
  const ranked = [...sentences.values()].map((strongAt) => {
    strongAt.sort((left, right) => left - right);
    const text = sentenceAround(document, { start: strongAt[0]!, end: strongAt[0]! }).text;
    const strong = new Set<string>();
    const weak = new Set<string>();
    for (const word of text.split(' ')) {
      const role = wordRole(vocabulary, word);
      if (role === 'strong') strong.add(wordStem(word));
      else if (role === 'weak') weak.add(wordStem(word));
    }
    return { strongAt, strong: strong.size, score: 3 * strong.size + weak.size };
  }).sort((left, right) => right.score - left.score || left.strongAt[0]! - right.strongAt[0]!);
  byAttribute.set(attribute, ranked);
  return ranked;
}

/** Which sentence of the document holds offset `at`: the number of sentence ends before it. */
function sentenceIndex(document: FoldedDocument, at: number): number {
  const ends = document.sentenceEnds;
  let low = 0;
  let high = ends.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ends[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A sentence of the document (cut to 80 characters) that names the attribute next to a rival
 * number (a strong word within four words of it) and says at least two description words' worth
 * more of the attribute than the quote's; undefined when there is none, or when such a sentence
 * states the value itself, named so. A figure of a year before the quote's is no better answer.
 */
function betterSentence(document: FoldedDocument, attribute: AttributeDefinition, vocabulary: AttributeVocabulary, value: number, quoted: Footing): string | undefined {
  const margin = quoted.year !== undefined && !quoted.yearValue && latestYear(document) > quoted.year ? 0
    : quoted.kind === 'named' && quoted.yearValue ? namedYearMargin : margins[quoted.kind];
  // A year is not named by "year": an attribute named by that word alone has no rival for one.
  if (margin === Infinity || (quoted.yearValue && vocabulary.strong.every((stem) => stem === 'year'))) return undefined;
  const candidates = sentenceHits(document, attribute, vocabulary).filter((sentence) => sentence.score >= quoted.score + margin).slice(0, mostSentencesRead);
  const answers = (number: NumberInText, sentence: FoldedSentence) => {
    const judgement = judgeNumberInSentence(number, sentence, attribute, vocabulary);
    return judgement.verdict === 'for' && judgement.named && !(quoted.year !== undefined && judgement.year !== undefined && judgement.year < quoted.year);
  };
  for (const candidate of candidates) {
    const sentence = sentenceAround(document, { start: candidate.strongAt[0]!, end: candidate.strongAt[0]! });
    // A rival is named within four words of it: only the text around the name words is read.
    for (const [start, end] of windowsAround(sentence.text, candidate.strongAt.map((at) => at - sentence.offset))) {
      const { stating, read } = numbersStatingValue(value, sentence.text.slice(start, end), attribute);
      const shift = (number: NumberInText) => ({ ...number, start: number.start + start, end: number.end + start });
      if (stating.some((number) => answers(shift(number), sentence))) return undefined;
      if (read.numbers.some((number) => isRival(shift(number), value, quoted.yearValue, sentence.text) && answers(shift(number), sentence))) {
        return sentence.text.length > 80 ? `${sentence.text.slice(0, 77)}...` : sentence.text;
      }
    }
  }
  return undefined;
}

/** `charactersReadAroundHit` on either side of each offset of `text`, cut at a space (no number is cut in two), overlapping ones merged. */
function windowsAround(text: string, offsets: number[]): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (const at of offsets) {
    if (at < 0 || at > text.length) continue;
    const start = at <= charactersReadAroundHit ? 0 : text.indexOf(' ', at - charactersReadAroundHit) + 1;
    const end = at + charactersReadAroundHit >= text.length ? text.length : Math.max(at, text.lastIndexOf(' ', at + charactersReadAroundHit));
    const previous = windows[windows.length - 1];
    if (previous && start <= previous[1]) previous[1] = Math.max(previous[1], end);
    else windows.push([start, end]);
  }
  return windows;
}

/** Per folded document, where it writes a year, latest year first. */
const yearsCache = new WeakMap<FoldedDocument, Array<{ year: number; at: number }>>();

/** The latest year the document writes, or -Infinity. */
function latestYear(document: FoldedDocument): number {
  return yearsWritten(document)[0]?.year ?? -Infinity;
}

/** Where the document writes a year (a four-digit number from 1900 to 2099 alone), latest year first; at most 2,000 of them. */
function yearsWritten(document: FoldedDocument): Array<{ year: number; at: number }> {
  let years = yearsCache.get(document);
  if (!years) {
    years = [];
    for (const match of document.text.matchAll(/(?<![\p{L}\p{N}.,-])(?:19|20)\d\d(?![\p{L}\p{N}]|[.,]\d)/gu)) {
      if (years.length >= 2000) break;
      years.push({ year: Number(match[0]), at: match.index });
    }
    years.sort((left, right) => right.year - left.year);
    yearsCache.set(document, years);
  }
  return years;
}

/**
 * A year later than `year` that the document ties a rival number of the attribute's kind to, its
 * own words not refusing it ("Net sales rose to $17,967 million in 2019" against "In fiscal 2018,
 * revenue was $15,489 million"); undefined when there is none. A document reports its latest period.
 */
function laterYearStated(document: FoldedDocument, attribute: AttributeDefinition, vocabulary: AttributeVocabulary, value: number, year: number): number | undefined {
  let read = 0;
  for (const written of yearsWritten(document)) {
    if (written.year <= year || read >= 3 * mostSentencesRead) break;
    read += 1;
    const sentence = sentenceAround(document, { start: written.at, end: written.at });
    const tied = numbersInText(sentence.text, attribute).numbers.find((number) => isRival(number, value, false, sentence.text) && isTiedTo(number, sentence, attribute, vocabulary, written.year));
    if (tied) return written.year;
  }
  return undefined;
}

function isTiedTo(number: NumberInText, sentence: FoldedSentence, attribute: AttributeDefinition, vocabulary: AttributeVocabulary, year: number): boolean {
  const judgement = judgeNumberInSentence(number, sentence, attribute, vocabulary);
  return judgement.verdict !== 'against' && judgement.year === year && !hasExcludedWord(sentence.text, vocabulary);
}

/** Whether the text uses a word the attribute's description excludes. */
function hasExcludedWord(text: string, vocabulary: AttributeVocabulary): boolean {
  return vocabulary.excluded.length > 0 && (text.match(/\p{L}+/gu) ?? []).some((word) => wordRole(vocabulary, word) === 'excluded');
}
