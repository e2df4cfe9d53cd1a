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
export type NumberJudgement = ({ verdict: 'against'; reason: string } | { verdict: 'for'; score: number; named: boolean } | { verdict: 'open'; topic: string[]; score: number }) & { year?: number };

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
  for (const end of sentence.clauseEnds) {
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
  if (first === tokens.length) return { verdict: 'open', topic: [], score: 0 };
  let last = first;
  while (last + 1 < tokens.length && tokens[last]!.end < number.end) last += 1;
  const isYear = number.end - number.start === 4 && isYearToken(sentence.text.slice(number.start, number.end));

  let after = last + 1;
  let unitWritten = false;
  for (; after < tokens.length && isUnitToken(tokens[after]!.text); after += 1) unitWritten = true;
  let rate: string | undefined;
  const counted: string[] = [];
  const next = tokenText(tokens, after + 1);
  if (rateWords.has(tokenText(tokens, after) ?? '') && next && next.length >= 2 && isLetters(next) && !isFunctionWord(next)) rate = next;
  else if (!isYear) for (let at = after; at < tokens.length && counted.length < 3 && isContentWord(tokens[at]!.text); at += 1) counted.push(tokens[at]!.text);
  let earlier = false;
  for (let at = after; at < tokens.length && at < after + 6 && !isNumberToken(tokens[at]!.text); at += 1) {
    earlier ||= earlierWords.has(tokens[at]!.text) || (earlierPeriodWords.has(tokens[at]!.text) && periodWords.has(tokenText(tokens, at + 1) ?? ''));
  }

  let before = first - 1;
  for (; before >= 0 && isUnitToken(tokens[before]!.text); before -= 1) unitWritten = true;
  const label: string[] = [];
  for (let at = before; at >= 0 && label.length < 5; at -= 1) {
    if (isYearToken(tokens[at]!.text)) continue;
    if (isNumberToken(tokens[at]!.text)) break;
    label.unshift(tokens[at]!.text);
  }
  const year = yearNear(sentenceTokens, clauseFirst + first, clauseFirst + last, number.value);
  const tied = year === undefined ? {} : { year };

  const near = label.slice(-3);
  const excluded = firstExcluded(vocabulary, counted, rate, near);
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
  for (let at = 0; at < counted.length && head < 0; at += 1) {
    const role = wordRole(vocabulary, counted[at]!);
    if (role === 'strong') head = at;
    else if (role === 'weak') anyWeak = true;
    else weakBeforeHead = false;
  }
  const column = resolveColumnUnit(attribute.unit).kind;
  if (counted.length && (column === 'currency' || column === 'measure') && !unitWritten && head < 0) {
    return judgedAgainst(year, `its number counts "${counted.join(' ')}", not an amount in ${attribute.unit}`);
  }
  if (counted.length && head < 0 && !anyWeak) return judgedAgainst(year, `its number counts "${counted.join(' ')}", not ${words(attribute.name)}`);
  const fromAfterChange = label.some((word, index) => word === 'from' && index > 0 && changeWords.has(label[index - 1]!));
  if (earlier || fromAfterChange || near.some((word) => comparisonWords.has(word))) {
    const context = tokens.slice(Math.max(0, first - 3), Math.min(tokens.length, last + 4)).map((token) => token.text).join(' ');
    return judgedAgainst(year, `its number is the figure another is compared with ("${context}"), not ${words(attribute.name)}`);
  }

  const strong = new Set<string>();
  const weak = new Set<string>();
  const content: string[] = [];
  for (const token of tokens) {
    if (!isContentWord(token.text)) continue;
    content.push(token.text);
    const role = wordRole(vocabulary, token.text);
    if (role === 'strong') strong.add(wordStem(token.text));
    else if (role === 'weak') weak.add(wordStem(token.text));
  }
  const score = 3 * strong.size + weak.size;
  if (strong.size > 0) {
    // What it counts, if anything, must be the attribute's own thing: "3 meeting rooms" does not name total rooms, "21 guests" does not.
    const countsIt = counted.length === 0 || (head >= 0 && weakBeforeHead);
    const named = countsIt && (namesAttribute(wordsAround(tokens, first, -1), vocabulary, isYear) || namesAttribute(wordsAround(tokens, last, 1), vocabulary, isYear));
    return { verdict: 'for', score, named, ...tied };
  }
  const topic = [...label, ...counted].filter(isContentWord);
  return { verdict: 'open', topic: topic.length ? topic : content.slice(0, 3), score, ...tied };
}

/** An `against` judgement with its reason, tied to `year` when there is one. A function, not a closure made for every number judged. */
function judgedAgainst(year: number | undefined, reason: string): NumberJudgement {
  return year === undefined ? { verdict: 'against', reason } : { verdict: 'against', reason, year };
}

/** Whether one of `words` is the attribute's own ("strong"), "year" aside for a number that is a year (a year is not named by "year"). */
function namesAttribute(words: readonly string[], vocabulary: AttributeVocabulary, isYear: boolean): boolean {
  for (const word of words) if (wordRole(vocabulary, word) === 'strong' && !(isYear && wordStem(word) === 'year')) return true;
  return false;
}

/** The first of the counted words, the rate and the words just before the number that the description excludes, in that order. */
function firstExcluded(vocabulary: AttributeVocabulary, counted: readonly string[], rate: string | undefined, near: readonly string[]): string | undefined {
  for (const word of counted) if (wordRole(vocabulary, word) === 'excluded') return word;
  if (rate !== undefined && wordRole(vocabulary, rate) === 'excluded') return rate;
  for (const word of near) if (wordRole(vocabulary, word) === 'excluded') return word;
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
  const tokens: Token[] = [];
  let start = 0;
  for (const word of text.split(' ')) {
    if (word) tokens.push({ text: word, start, end: start + word.length });
    start += word.length + 1;
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
 * The four words before (`step` -1) or after (+1) the token at `from` in the clause, passing over
 * units, currencies, years and the parts of a date ("the fiscal year ended December 31, 2020").
 */
function wordsAround(tokens: readonly Token[], from: number, step: 1 | -1): string[] {
  const found: string[] = [];
  for (let at = from + step; at >= 0 && at < tokens.length && found.length < 4; at += step) {
    const text = tokens[at]!.text;
    const dayOfMonth = isDigits(text, 1, 2) && (monthWords.has(tokenText(tokens, at - 1) ?? '') || monthWords.has(tokenText(tokens, at + 1) ?? ''));
    if (!isUnitToken(text) && !isYearToken(text) && !monthWords.has(text) && !dayOfMonth) found.push(text);
  }
  return found;
}

function isYearToken(text: string): boolean {
  return isDigits(text, 4, 4) && Number(text) >= 1800 && Number(text) <= 2100;
}

/** A unit, currency or magnitude word, or a currency sign or "%", next to a number; not a function word ("in" is an inch only in a length). */
function isUnitToken(word: string): boolean {
  // A sign is one code point, at most two code units: a longer word is never one.
  return (isUnitWord(word) && !isFunctionWord(word)) || (word.length <= 2 && /^[\p{Sc}%]$/u.test(word));
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

/** Whether a word is a content word, per word: each token of a clause is asked two or three times, in every clause judged. */
const contentWords = new Map<string, boolean>();

/** Whether a word is letters only (lower-case ASCII checked by code, anything else by Unicode property). */
function isLetters(word: string): boolean {
  for (let index = 0; index < word.length; index += 1) {
    const code = word.charCodeAt(index);
    if (code >= 97 && code <= 122) continue;
    return /^\p{L}+$/u.test(word);
  }
  return true;
}
