import type { NumberInText } from '../normalization/numbers-in-text.ts';
import { resolveColumnUnit } from '../normalization/resolve-column-unit.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { isUnitWord, wordRole, type AttributeVocabulary } from './attribute-vocabulary.ts';
import { isFunctionWord } from './function-words.ts';
import type { FoldedSentence } from './sentence-around.ts';
import { stemsMatch, wordStem } from './word-stem.ts';
import { isDigits } from '../text/is-digits.ts';

/**
 * What a number's own words say of it, for one attribute: `against` when they say it is about
 * something else (with the reason), `for` when its clause names the attribute, `open` when they
 * say neither (`topic`: what the clause speaks of instead; `score`: how many of the description's
 * words it uses). `year`: a year the number is tied to ("in fiscal 2022"), if any.
 */
export type NumberJudgement = ({ verdict: 'against'; reason: string } | { verdict: 'for'; score: number; named: boolean } | { verdict: 'open'; topic: readonly string[]; score: number }) & { year: number | undefined };

interface Token {
  text: string;
  start: number;
  end: number;
}

/** Words that introduce the figure a number is compared with ("compared with $4.1B", "versus 12"). */
const comparisonWords = new Set(['compared', 'comparison', 'versus', 'vs', 'than']);
/** Words after which "from" names where a change started ("up from", "rose from"): a figure of before. */
const changeWords = new Set(['up', 'down', 'rose', 'risen', 'grew', 'increased', 'decreased', 'fell', 'declined', 'dropped', 'climbed', 'slipped']);
/** Words after a number that place it before the period the document reports: "a year earlier", "two years ago". */
const earlierWords = new Set(['earlier', 'ago']);
/** Words that do so before a word of a period: "in the prior year", "last quarter". */
const earlierPeriodWords = new Set(['prior', 'previous', 'preceding', 'last']);
const periodWords = new Set(['year', 'years', 'quarter', 'quarters', 'period', 'season', 'month', 'fiscal']);
/** Words that put a rate after a number: "$45 per night", "$100,000 a year", "$45 each way". */
const rateWords = new Set(['per', 'a', 'an', 'each', 'every']);
/**
 * Month words and their short forms: "jan", "january", … "sept", "september" — and "sepember", which
 * the pattern this set replaced (`sept?(?:ember)?`) matched too. A set, not a pattern: every token
 * of a clause is looked up, and a lookup costs less than a match.
 */
const monthWords = new Set([
  'jan', 'january', 'feb', 'february', 'mar', 'march', 'apr', 'april', 'may', 'jun', 'june', 'jul', 'july', 'aug', 'august',
  'sep', 'sept', 'sepember', 'september', 'oct', 'october', 'nov', 'november', 'dec', 'december',
]);

/**
 * Judges what `number`, read from the folded `sentence` it sits in, is about, against the
 * attribute's vocabulary. Only the number's clause is read (a comma or an opening parenthesis ends
 * one; a label's colon does not): the words after the number as what it counts ("7 engineers") or
 * the rate it is per ("$45 per day"), the words before it as its label ("project budget of $2.3M").
 * - It is against the attribute when it counts something that is neither the attribute's nor its
 *   description's ("a team of 7 engineers" as years of experience; a year does not count, "the
 *   2007 edition"); when it counts anything but the attribute in a column of money or of a measure
 *   and no currency or unit is written ("120 rooms" as a price); when it is per another thing than
 *   the attribute's "per" ("$25 per day" for a price per night); when a word next to it is one the
 *   description excludes ("12 host cities", "per match"); or when it is the figure another is
 *   compared with ("compared with $4,650 million", "up from 80", "a year earlier", "in the prior year").
 * - It is for the attribute when its clause names one of the attribute's own words, or the unit it
 *   counts ("11 yrs" for years); `named` when that word is within four words of the number (units,
 *   currencies and years aside), not only somewhere in the clause, and what the number counts, if
 *   anything, is the attribute's own thing ("3 meeting rooms" does not name total rooms). A year is
 *   not named by "year".
 * - It is open otherwise.
 * `year` is read from the whole sentence ("In fiscal 2022, revenue was …"), within four words.
 */
export function judgeNumberInSentence(number: NumberInText, sentence: FoldedSentence, attribute: AttributeDefinition, vocabulary: AttributeVocabulary): NumberJudgement {
  let clauseStart = 0;
  let clauseEnd = sentence.text.length;
  // Index loops, not for…of: the first thousands of numbers are judged by V8's interpreter and
  // baseline code, where every step of an iterator allocates its result.
  for (let index = 0; index < sentence.clauseEnds.length; index += 1) {
    const end = sentence.clauseEnds[index]!;
    if (end <= number.start) clauseStart = end;
    else if (end >= number.end) {
      clauseEnd = end;
      break;
    }
  }
  const sentenceTokens = tokensOf(sentence.text);
  let clauseFirst = 0;
  while (clauseFirst < sentenceTokens.length && sentenceTokens[clauseFirst]!.start < clauseStart) clauseFirst += 1;
  let clauseLast = clauseFirst;
  while (clauseLast < sentenceTokens.length && sentenceTokens[clauseLast]!.end <= clauseEnd) clauseLast += 1;
  // The sentence's own list when the clause is the whole sentence (a line of a list, the usual case): neither is changed.
  const tokens = clauseFirst === 0 && clauseLast === sentenceTokens.length ? sentenceTokens : sentenceTokens.slice(clauseFirst, clauseLast);
  let first = 0;
  while (first < tokens.length && tokens[first]!.end <= number.start) first += 1;
  if (first === tokens.length) return judged('open', '', 0, false, [], undefined);
  let last = first;
  while (last + 1 < tokens.length && tokens[last]!.end < number.end) last += 1;
  const isYear = number.end - number.start === 4 && isYearToken(sentence.text.slice(number.start, number.end));

  let after = last + 1;
  let unitWritten = false;
  for (; after < tokens.length && isUnitToken(tokens[after]!.text); after += 1) unitWritten = true;
  let rate: string | undefined;
  // What the number counts: the content words right after it (at most three), tokens `after` on.
  let counted = 0;
  const next = tokenText(tokens, after + 1);
  if (rateWords.has(tokenText(tokens, after) ?? '') && next && next.length >= 2 && isLetters(next) && !isFunctionWord(next)) rate = next;
  else if (!isYear) while (after + counted < tokens.length && counted < 3 && isContentWord(tokens[after + counted]!.text)) counted += 1;
  let earlier = false;
  for (let at = after; at < tokens.length && at < after + 6 && !isNumberToken(tokens[at]!.text); at += 1) {
    earlier ||= earlierWords.has(tokens[at]!.text) || (earlierPeriodWords.has(tokens[at]!.text) && periodWords.has(tokenText(tokens, at + 1) ?? ''));
  }

  let before = first - 1;
  for (; before >= 0 && isUnitToken(tokens[before]!.text); before -= 1) unitWritten = true;
  // The label: up to five words before the number, years passed over, up to a number. Kept as
  // token indexes, nearest first, in a list reused from call to call (see `labelAt`).
  let labelCount = 0;
  for (let at = before; at >= 0 && labelCount < 5; at -= 1) {
    if (isYearToken(tokens[at]!.text)) continue;
    if (isNumberToken(tokens[at]!.text)) break;
    labelAt[labelCount++] = at;
  }
  const nearCount = Math.min(3, labelCount);
  const year = yearNear(sentenceTokens, clauseFirst + first, clauseFirst + last, number.value);

  const excluded = firstExcluded(vocabulary, tokens, after, counted, rate, nearCount);
  if (excluded) return judgedAgainst(year, `its number is about "${excluded}", which the description of ${attribute.name} excludes`);
  if (rate && vocabulary.excludedRates.some((other) => stemsMatch(other, wordStem(rate)))) return judgedAgainst(year, `its number is per ${rate}, which the description of ${attribute.name} excludes`);
  if (rate && vocabulary.rate && !stemsMatch(vocabulary.rate, wordStem(rate)) && wordRole(vocabulary, rate) !== 'strong') return judgedAgainst(year, `its number is per ${rate}, not per ${vocabulary.rate}`);
  // What the counted words are, read once: the first that is the attribute's own ("strong"), whether
  // only "weak" ones come before it, and whether any is weak. Counters, not a list of roles: this
  // runs for every number judged, and a list whose kind of elements changed with its length sent
  // the optimized function back to the interpreter.
  let head = -1;
  let weakBeforeHead = true;
  let anyWeak = false;
  for (let at = 0; at < counted && head < 0; at += 1) {
    const role = wordRole(vocabulary, tokens[after + at]!.text);
    if (role === 'strong') head = at;
    else if (role === 'weak') anyWeak = true;
    else weakBeforeHead = false;
  }
  const column = resolveColumnUnit(attribute.unit).kind;
  if (counted && (column === 'currency' || column === 'measure') && !unitWritten && head < 0) {
    return judgedAgainst(year, `its number counts "${tokenTexts(tokens, after, after + counted)}", not an amount in ${attribute.unit}`);
  }
  if (counted && head < 0 && !anyWeak) return judgedAgainst(year, `its number counts "${tokenTexts(tokens, after, after + counted)}", not ${words(attribute.name)}`);
  // "from" after a word of change ("rose from"), in the label's order: the word before "from" is the next farther one.
  let fromAfterChange = false;
  for (let near = 0; near + 1 < labelCount && !fromAfterChange; near += 1) fromAfterChange = tokens[labelAt[near]!]!.text === 'from' && changeWords.has(tokens[labelAt[near + 1]!]!.text);
  let compared = false;
  for (let near = 0; near < nearCount && !compared; near += 1) compared = comparisonWords.has(tokens[labelAt[near]!]!.text);
  if (earlier || fromAfterChange || compared) {
    const context = tokenTexts(tokens, Math.max(0, first - 3), Math.min(tokens.length, last + 4));
    return judgedAgainst(year, `its number is the figure another is compared with ("${context}"), not ${words(attribute.name)}`);
  }

  // The distinct stems of the clause's strong and weak words, counted in lists reused from call to call (not two sets made per number judged).
  let strong = 0;
  let weak = 0;
  for (let at = 0; at < tokens.length; at += 1) {
    const text = tokens[at]!.text;
    if (!isContentWord(text)) continue;
    const role = wordRole(vocabulary, text);
    if (role === 'strong') strong = addDistinct(strongStems, strong, wordStem(text));
    else if (role === 'weak') weak = addDistinct(weakStems, weak, wordStem(text));
  }
  const score = 3 * strong + weak;
  if (strong > 0) {
    // What it counts, if anything, must be the attribute's own thing: "3 meeting rooms" does not name total rooms, "21 guests" does not.
    const countsIt = counted === 0 || (head >= 0 && weakBeforeHead);
    const named = countsIt && (namesAttributeAround(tokens, first, -1, vocabulary, isYear) || namesAttributeAround(tokens, last, 1, vocabulary, isYear));
    return judged('for', '', score, named, noTopic, year);
  }
  const topic: string[] = [];
  for (let near = labelCount - 1; near >= 0; near -= 1) if (isContentWord(tokens[labelAt[near]!]!.text)) topic.push(tokens[labelAt[near]!]!.text);
  for (let at = after; at < after + counted; at += 1) if (isContentWord(tokens[at]!.text)) topic.push(tokens[at]!.text);
  if (topic.length === 0) for (let at = 0; at < tokens.length && topic.length < 3; at += 1) if (isContentWord(tokens[at]!.text)) topic.push(tokens[at]!.text);
  return judged('open', '', score, false, topic, year);
}

/**
 * The label's token indexes, nearest the number first (at most five), and the distinct strong and
 * weak stems of a clause: lists kept from one judgement to the next and filled from the start
 * (a count says how much is in use), since a judgement runs for every number read and a list or a
 * set made for each was most of what it allocated. Never returned; judging does not nest.
 */
const labelAt: number[] = [0, 0, 0, 0, 0];
const strongStems: string[] = [];
const weakStems: string[] = [];

/** `stem` added to the first `count` of `stems` unless it is one of them; the new count. */
function addDistinct(stems: string[], count: number, stem: string): number {
  for (let index = 0; index < count; index += 1) if (stems[index] === stem) return count;
  stems[count] = stem;
  return count + 1;
}

/** The texts of tokens `from` to `to` (not included), joined by spaces. */
function tokenTexts(tokens: readonly Token[], from: number, to: number): string {
  let text = '';
  for (let at = from; at < to; at += 1) text += at === from ? tokens[at]!.text : ` ${tokens[at]!.text}`;
  return text;
}

/** An `against` judgement with its reason, tied to `year` when there is one. A function, not a closure made for every number judged. */
function judgedAgainst(year: number | undefined, reason: string): NumberJudgement {
  return judged('against', reason, 0, false, noTopic, year);
}

/**
 * Every judgement made here, with all its fields, in one order: one object shape for V8, whatever
 * the verdict and whether a year is tied. A judgement built only with its verdict's fields came in
 * six shapes, which every read of it in `quoteIsAboutAttribute` had to tell apart. The fields
 * another verdict has are placeholders: '' for `reason`, 0 for `score`, false for `named`, an empty
 * `topic`, read by nobody.
 */
function judged(verdict: NumberJudgement['verdict'], reason: string, score: number, named: boolean, topic: readonly string[], year: number | undefined): NumberJudgement {
  const judgement = { verdict, reason, score, named, topic, year };
  // The union's members are the verdicts' views of this one object: each has the fields it names.
  return judgement as NumberJudgement;
}

/** The topic of a judgement that is not `open`: shared, never changed. */
const noTopic: readonly string[] = [];

/** The first of the counted words (`counted` tokens from `after`), the rate and the words just before the number (the label's nearest `nearCount`, in the text's order) that the description excludes, in that order. */
function firstExcluded(vocabulary: AttributeVocabulary, tokens: readonly Token[], after: number, counted: number, rate: string | undefined, nearCount: number): string | undefined {
  for (let at = after; at < after + counted; at += 1) if (wordRole(vocabulary, tokens[at]!.text) === 'excluded') return tokens[at]!.text;
  if (rate !== undefined && wordRole(vocabulary, rate) === 'excluded') return rate;
  for (let near = nearCount - 1; near >= 0; near -= 1) if (wordRole(vocabulary, tokens[labelAt[near]!]!.text) === 'excluded') return tokens[labelAt[near]!]!.text;
  return undefined;
}

function isNumberToken(text: string): boolean {
  const code = text.charCodeAt(text[0] === '-' || text[0] === '+' ? 1 : 0);
  return code >= 48 && code <= 57;
}

/**
 * The text of the token at `at`, undefined outside the list. Read so, not as `tokens[at]?.text`: an
 * index before the first is no element but a property name, looked up slowly, and the words around
 * a number are read at such indexes for every number judged.
 */
function tokenText(tokens: readonly Token[], at: number): string | undefined {
  return at >= 0 && at < tokens.length ? tokens[at]!.text : undefined;
}

/** The last sentence's words: the numbers of one sentence are judged in turn (see `tokensOf`). */
let lastTokens: { text: string; tokens: readonly Token[] } | undefined;

/** The words of folded text (single spaces between them) with where each starts and ends; read only. */
function tokensOf(text: string): readonly Token[] {
  if (lastTokens?.text === text) return lastTokens.tokens;
  // Read by code, into a list made at its length: not split into words first, nor grown by a push.
  let count = 0;
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) !== 32 && (index === 0 || text.charCodeAt(index - 1) === 32)) count += 1;
  const tokens: Token[] = new Array<Token>(count);
  let start = -1;
  count = 0;
  for (let index = 0; index <= text.length; index += 1) {
    if (index < text.length && text.charCodeAt(index) !== 32) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      tokens[count++] = { text: text.slice(start, index), start, end: index };
      start = -1;
    }
  }
  lastTokens = { text, tokens };
  return tokens;
}

/** "years of experience" for `years_of_experience`: how messages name an attribute. */
export function words(name: string): string {
  return name.replace(/[_\s]+/g, ' ').trim();
}

/** A year written within four words of the number in its clause, on either side, nearest first ("in fiscal 2022"). */
function yearNear(tokens: readonly Token[], first: number, last: number, value: number): number | undefined {
  for (let distance = 1; distance <= 4; distance += 1) {
    const before = yearAt(tokens, first - distance, value);
    if (before !== undefined) return before;
    const after = yearAt(tokens, last + distance, value);
    if (after !== undefined) return after;
  }
  return undefined;
}

/** The year the token at `at` writes (four digits, 1900 to 2100), unless it is `value` or there is no such token. */
function yearAt(tokens: readonly Token[], at: number, value: number): number | undefined {
  const text = tokenText(tokens, at);
  if (text === undefined || !isDigits(text, 4, 4)) return undefined;
  const word = Number(text);
  return word >= 1900 && word <= 2100 && word !== value ? word : undefined;
}


/**
 * Whether one of the four words before (`step` -1) or after (+1) the token at `from` in the clause
 * is the attribute's own ("strong"), passing over units, currencies, years and the parts of a date
 * ("the fiscal year ended December 31, 2020"), and "year" for a number that is a year (a year is
 * not named by "year"). Read in place, not gathered into a list first.
 */
function namesAttributeAround(tokens: readonly Token[], from: number, step: 1 | -1, vocabulary: AttributeVocabulary, isYear: boolean): boolean {
  let found = 0;
  for (let at = from + step; at >= 0 && at < tokens.length && found < 4; at += step) {
    const text = tokens[at]!.text;
    const dayOfMonth = isDigits(text, 1, 2) && (monthWords.has(tokenText(tokens, at - 1) ?? '') || monthWords.has(tokenText(tokens, at + 1) ?? ''));
    if (isUnitToken(text) || isYearToken(text) || monthWords.has(text) || dayOfMonth) continue;
    found += 1;
    if (wordRole(vocabulary, text) === 'strong' && !(isYear && wordStem(text) === 'year')) return true;
  }
  return false;
}

function isYearToken(text: string): boolean {
  return isDigits(text, 4, 4) && Number(text) >= 1800 && Number(text) <= 2100;
}

/** A unit, currency or magnitude word, or a currency sign or "%", next to a number; not a function word ("in" is an inch only in a length). */
function isUnitToken(word: string): boolean {
  // A sign is one code point, at most two code units: a longer word is never one.
  return (isUnitWord(word) && !isFunctionWord(word)) || (word.length <= 2 && currencySignOrPercent.test(word));
}

/** A word that can name what a number is about: letters, not a function, comparison, unit, currency or month word. */
function isContentWord(word: string | undefined): boolean {
  if (word === undefined) return false;
  let known = contentWords.get(word);
  if (known === undefined) {
    // Bounded: a document's words are few, but a million documents' are not.
    if (contentWords.size >= 20_000) contentWords.clear();
    contentWords.set(word, (known = word.length >= 2 && isLetters(word) && !isFunctionWord(word) && !isUnitWord(word) && !monthWords.has(word)
      && !comparisonWords.has(word) && !changeWords.has(word) && !earlierWords.has(word) && !earlierPeriodWords.has(word)));
  }
  return known;
}

const currencySignOrPercent = /^[\p{Sc}%]$/u;
const lettersOnly = /^\p{L}+$/u;

/** Whether a word is a content word, per word: each token of a clause is asked two or three times, in every clause judged. */
const contentWords = new Map<string, boolean>();

/** Whether a word is letters only (lower-case ASCII checked by code, anything else by Unicode property). */
function isLetters(word: string): boolean {
  for (let index = 0; index < word.length; index += 1) {
    const code = word.charCodeAt(index);
    if (code >= 97 && code <= 122) continue;
    return lettersOnly.test(word);
  }
  return true;
}
