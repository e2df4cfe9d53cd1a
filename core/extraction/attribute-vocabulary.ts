import { currencyMentions } from '../normalization/currency-mentions.ts';
import { measurementUnits } from '../normalization/measurement-units.ts';
import { resolveColumnUnit } from '../normalization/resolve-column-unit.ts';
import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { isFunctionWord } from './function-words.ts';
import { stemsMatch, wordStem } from './word-stem.ts';

/** What an attribute's own definition says it is about, as word stems (see `wordStem`). */
export interface AttributeVocabulary {
  /** The name's words and a counted unit's ("years", "stars"): what a value of it is a number of. */
  strong: readonly string[];
  /** The description's other words: what a sentence about the attribute tends to speak of. */
  weak: readonly string[];
  /** Words of what the description excludes ("Not the guest rating": guest) that it does not also include. */
  excluded: readonly string[];
  /** Rates the description excludes: "match" of "not the per-match average". */
  excludedRates: readonly string[];
  /** The X of "per X" in the name or the unit ("price_per_night", "USD per night": night). */
  rate: string | undefined;
  /**
   * Roles already found (see `wordRole`): a document's words are judged for every value. A word of
   * no role is kept as `noRole`, so that one lookup answers (most words have none). A field, not a
   * map per vocabulary kept aside: a word's role costs one lookup, not two.
   */
  roles: Map<string, Exclude<WordRole, undefined> | typeof noRole>;
}

/** What a word of a sentence is to the attribute: one of its words, one of its description's, one it excludes, or none. */
export type WordRole = 'strong' | 'weak' | 'excluded' | undefined;

/** Words that are a number's unit, currency or magnitude, not a thing it is about. */
const magnitudeWords = new Set(['k', 'm', 'mm', 'mn', 'mio', 'b', 'bn', 'tn', 'thousand', 'thousands', 'million', 'millions', 'billion', 'billions', 'trillion', 'trillions', 'hundred', 'percent', 'cent']);

/** Whether a lower-case word is a unit, a currency or a magnitude ("km", "usd", "million"). */
export function isUnitWord(word: string): boolean {
  return magnitudeWords.has(word) || measurementUnits.has(word) || currencyMentions.has(word);
}

const negation = /\b(?:not|excluding|except|excludes?|rather than|other than)\b/i;

const cache = new WeakMap<AttributeDefinition, AttributeVocabulary>();

/**
 * The vocabulary of an attribute, from its definition only (name, description, unit): the name's
 * words ("years_of_experience": years, experience) and a counted unit's are strong; the
 * description's other words weak; what a clause of the description excludes ("Not the number of
 * host cities", "not the per-match average") is kept apart, so that a sentence about it counts
 * against the attribute. Computed once per attribute definition.
 */
export function attributeVocabulary(attribute: AttributeDefinition): AttributeVocabulary {
  const cached = cache.get(attribute);
  if (cached) return cached;
  const nameWords = attribute.name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
  const column = resolveColumnUnit(attribute.unit);
  const unitWords = column.kind === 'count' ? contentWords(column.label) : [];
  // A name keeps a word that is a unit elsewhere ("market_share"), but not a currency, a magnitude or a short unit ("price_usd", "distance_km").
  const nameContent = nameWords.filter((word) => word.length >= 2 && !isFunctionWord(word) && !magnitudeWords.has(word) && !currencyMentions.has(word) && !(measurementUnits.has(word) && word.length <= 3));
  const strong = unique([...nameContent, ...unitWords].map(wordStem));
  const included: string[] = [];
  const excludedWords: string[] = [];
  const excludedRates: string[] = [];
  for (const clause of attribute.description.split(/[.;:()]|,\s*(?=not\b)/i)) {
    const at = clause.search(negation);
    included.push(...contentWords(at < 0 ? clause : clause.slice(0, at)));
    if (at < 0) continue;
    const excludedText = clause.slice(at).replace(negation, ' ');
    for (const match of excludedText.toLowerCase().matchAll(/\bper[\s-]+([a-z]+)/g)) excludedRates.push(wordStem(match[1]!));
    excludedWords.push(...contentWords(excludedText.replace(/\bper[\s-]+[a-z]+/gi, ' ')));
  }
  const weak = unique(included.map(wordStem)).filter((stem) => !strong.some((other) => stemsMatch(other, stem)));
  const positive = [...strong, ...weak];
  const excluded = unique(excludedWords.map(wordStem)).filter((stem) => !positive.some((other) => stemsMatch(other, stem)));
  const rateWord = /\bper[\s_-]+([a-z]+)/i.exec(`${attribute.name.replace(/_/g, ' ')} ${attribute.unit ?? ''}`)?.[1];
  const rate = rateWord ? wordStem(rateWord.toLowerCase()) : undefined;
  const vocabulary: AttributeVocabulary = { strong, weak, excluded, excludedRates: unique(excludedRates), rate, roles: new Map() };
  cache.set(attribute, vocabulary);
  return vocabulary;
}

/**
 * The role of a lower-case word for the attribute (see `WordRole`). A word of three or four
 * letters that abbreviates a strong word ("yrs" for years, "hrs" for hours) counts as it.
 */
export function wordRole(vocabulary: AttributeVocabulary, word: string): WordRole {
  const roles = vocabulary.roles;
  const known = roles.get(word);
  if (known !== undefined) return known === noRole ? undefined : known;
  if (roles.size >= 20_000) roles.clear();
  const role = roleOf(vocabulary, word);
  roles.set(word, role ?? noRole);
  return role;
}

/** A word of no role, in `AttributeVocabulary.roles`. */
const noRole = 0;

function roleOf(vocabulary: AttributeVocabulary, word: string): WordRole {
  if (!/^\p{L}/u.test(word) || isFunctionWord(word)) return undefined;
  const stem = wordStem(word);
  if (vocabulary.strong.some((other) => stemsMatch(other, stem) || abbreviates(word, other))) return 'strong';
  if (vocabulary.weak.some((other) => stemsMatch(other, stem))) return 'weak';
  if (vocabulary.excluded.some((other) => stemsMatch(other, stem))) return 'excluded';
  return undefined;
}

/** "yrs" of year, "mins" of minute: same first letter, its letters in order in the word, the plural "s" aside. */
function abbreviates(word: string, stem: string): boolean {
  if (word.length < 3 || word.length > 4 || word[0] !== stem[0] || word.length >= stem.length) return false;
  const letters = word.endsWith('s') ? word.slice(0, -1) : word;
  let at = 0;
  for (const letter of letters) {
    at = stem.indexOf(letter, at) + 1;
    if (at === 0) return false;
  }
  return /[^aeiou]/.test(letters.slice(1));
}

/** The words of a text that can say what something is about: letters only, no function, unit or currency word. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => word.length >= 2 && !isFunctionWord(word) && !isUnitWord(word));
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
