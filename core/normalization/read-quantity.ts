import type { ValueIssueCode } from './normalization-result.ts';
import type { ColumnUnit } from './resolve-column-unit.ts';
import { currencyMentions, type CurrencyMention } from './currency-mentions.ts';
import { measurementUnits, type MeasurementUnit } from './measurement-units.ts';
import { matchLeadingAlias } from './match-leading-alias.ts';
import { decimalLiteralPattern, readDecimalLiteral } from './read-decimal-literal.ts';
import { replaceNumberWords } from './replace-number-words.ts';
import { tidyNumberText } from './tidy-number-text.ts';

/** A number as written, with what the text says about its currency, unit and magnitude. */
export interface Quantity {
  /** The number before any magnitude word: 1.2 for "$1.2M"; in `unit` when a unit was written. */
  amount: number;
  /** 1e6 for "M" or "million"; absent when no magnitude word was written. */
  magnitude?: number;
  currency?: CurrencyMention;
  unit?: MeasurementUnit;
}

export type QuantityReading = { quantity: Quantity } | { failure: { code: ValueIssueCode; reason: string } };

const magnitudes: ReadonlyMap<string, number> = new Map([
  ['k', 1e3], ['thousand', 1e3], ['thousands', 1e3], ['hundred', 1e2],
  ['m', 1e6], ['mm', 1e6], ['mn', 1e6], ['mio', 1e6], ['million', 1e6], ['millions', 1e6],
  ['b', 1e9], ['bn', 1e9], ['billion', 1e9], ['billions', 1e9],
  ['tn', 1e12], ['trillion', 1e12], ['trillions', 1e12],
]);
/** Scores keep their numerator: "4.5/5" and "8 out of 10" are ratings, "1/2" is not. */
const scoreDenominators = new Set([5, 10, 20, 100]);

/** Patterns made once: a literal inside a function is a new object each time it runs. */
const inParentheses = /^\((.+)\)$/;
const rangeAfter = /^\s*(?:-|–|—|to)\s*(?:[$€£¥]\s*)?\d/;
const dashedDigits = /^-\d+-\d/;
const scoreAfter = /^\s*(?:\/|out of)\s*(\d+)(?![\d.,])/;
const leadingPlus = /^\s*\+/;
const rateAfter = /^(?:per\b|\/|an? \p{L})/u;
const letterFirst = /^\p{L}/u;
const listedNumber = /^[,;]\s*\d/;
const wordsAfter = /^(?:\p{L}|\(|[,;]|\/\s*\p{L})/u;
const leadingSign = /^([+-])\s*/;
const compoundJoin = /^\s*(?:,|and)?\s*/;
const compoundLiteral = /^\d+(?:\.\d+)?/;
/** Digits, with marks between them only: a text `tidyNumberText` leaves as it is, all of it the literal. */
const plainNumber = /^\d+(?:[.,]\d+)*$/;

/**
 * Read a numeric text such as "USD 1.2m", "(1,234)", "$(1,234)", "€ 3.400,50", "2 hours 30 minutes", "4.5/5",
 * "1.2k reviews" or "twelve". The column's unit settles what the text cannot: "m" is metres in a
 * length or area column, minutes in a duration column and millions elsewhere; "mm" is millimetres
 * in a length column and millions elsewhere; "pounds" is mass in a mass column and GBP elsewhere;
 * "in" is an inch only in a length column. Words after the number ("3 stars", "$45 per night") are
 * ignored, except in a column with a convertible unit, where an unknown word right after the number
 * ("3 stone") or a rate ("100 km per hour") is a `unit_mismatch`.
 */
export function readQuantity(written: string, column: ColumnUnit): QuantityReading {
  // Digits alone, the usual text ("977", "7,258", "8.7"): no sign, currency, word, unit or hedge to
  // read around them, so only the literal is read, as the steps below would read it.
  if (plainNumber.test(written)) {
    const amount = readDecimalLiteral(written, { money: column.kind === 'currency', magnitude: false });
    if (amount !== undefined) return { quantity: { amount: amount === 0 ? 0 : amount, magnitude: undefined, currency: undefined, unit: undefined } };
  }
  const dimension = column.kind === 'measure' ? column.unit.dimension : undefined;
  let text = tidyNumberText(written);
  let negative = false;
  const accounting = inParentheses.exec(text);
  if (accounting?.[1]) [negative, text] = [true, accounting[1].trim()];
  // A sign, before a currency and after one ("-$45", "$-45").
  [negative, text] = withSign(text, negative);
  const prefix = matchLeadingAlias(text, currencyAliases);
  const currencies: CurrencyMention[] = [];
  if (prefix) {
    currencies.push(currencyMentions.get(prefix.alias) as CurrencyMention);
    text = prefix.rest.trimStart();
    const inner = negative ? null : inParentheses.exec(text);
    if (inner?.[1]) [negative, text] = [true, inner[1].trim()];
    [negative, text] = withSign(text, negative);
  }
  text = replaceNumberWords(text);
  const literal = decimalLiteralPattern.exec(text)?.[0];
  if (!literal) return failure('not_a_number', 'is not a number');
  let rest = text.slice(literal.length);

  const isRange = rangeAfter.test(rest) && !dashedDigits.test(rest);
  if (isRange) return failure('ambiguous', 'is a range, not one number');
  const score = scoreAfter.exec(rest);
  if (score) {
    const numerator = readDecimalLiteral(literal, { money: column.kind === 'currency' || currencies.length > 0 }) ?? Infinity;
    if (!scoreDenominators.has(Number(score[1])) || numerator > Number(score[1])) return failure('not_a_number', 'is a fraction, not one number');
    rest = rest.slice(score[0].length);
  }
  rest = rest.replace(leadingPlus, '');
  const magnitudeWord = matchLeadingAlias(rest, magnitudeAliases(dimension));
  const magnitude = magnitudeWord ? magnitudes.get(magnitudeWord.alias) : undefined;
  if (magnitudeWord) rest = magnitudeWord.rest.replace(leadingPlus, '');

  let unit: MeasurementUnit | undefined;
  const unitWord = matchLeadingAlias(rest, unitAndCurrencyAliases);
  if (unitWord) {
    const asUnit = unitHere(unitWord.alias, dimension);
    const asCurrency = currencyMentions.get(unitWord.alias);
    if (asCurrency && !(asUnit && dimension === 'mass')) currencies.push(asCurrency);
    else unit = asUnit;
    if (asCurrency || asUnit) rest = unitWord.rest;
  }
  const isMoney = column.kind === 'currency' || currencies.length > 0;
  let amount = readDecimalLiteral(literal, { money: isMoney, magnitude: magnitude !== undefined });
  if (amount === undefined) return failure('not_a_number', 'is not a number');

  for (let part = compoundPart(rest, unit, dimension); part && unit; part = compoundPart(rest, unit, dimension)) {
    amount += (part.amount * part.unit.toBase) / unit.toBase;
    rest = part.rest;
  }
  const after = rest.trim();
  const hasConvertibleColumn = dimension !== undefined && dimension !== 'proportion';
  if (hasConvertibleColumn && unit && rateAfter.test(after)) return failure('unit_mismatch', 'is a rate, not an amount');
  if (hasConvertibleColumn && !unit && letterFirst.test(after)) return failure('unit_mismatch', 'has a unit that cannot be read');
  if (listedNumber.test(after)) return failure('ambiguous', 'lists several numbers');
  if (after !== '' && !wordsAfter.test(after)) return failure('not_a_number', 'is not a number');

  const signed = negative ? -amount : amount;
  return { quantity: { amount: signed === 0 ? 0 : signed, magnitude, currency: currencies[0], unit } };
}

function failure(code: ValueIssueCode, reason: string): QuantityReading {
  return { failure: { code, reason } };
}

/** `text` without a leading sign, and whether the number is negative once it is read (a function, not a closure made for every text read). */
function withSign(text: string, negative: boolean): [boolean, string] {
  const sign = leadingSign.exec(text);
  return sign ? [negative !== (sign[1] === '-'), text.slice(sign[0].length)] : [negative, text];
}

/** Every unit and currency spelling, listed once (quotes are read many times per record). */
const currencyAliases = [...currencyMentions.keys()];
const unitAliases = [...measurementUnits.keys()];
const unitAndCurrencyAliases = [...unitAliases, ...currencyAliases];
const magnitudeAliasesByDimension = new Map<string | undefined, string[]>();

/** The magnitude words of a column of this dimension: all but those that are units here. */
function magnitudeAliases(dimension: string | undefined): string[] {
  let aliases = magnitudeAliasesByDimension.get(dimension);
  if (!aliases) {
    aliases = [...magnitudes.keys()].filter((alias) => !isUnitHere(alias, dimension));
    magnitudeAliasesByDimension.set(dimension, aliases);
  }
  return aliases;
}

/** Aliases that are units rather than magnitudes in a column of this dimension. */
function isUnitHere(alias: string, dimension: string | undefined): boolean {
  if (alias === 'm') return dimension === 'length' || dimension === 'area' || dimension === 'duration';
  if (alias === 'mm') return dimension === 'length' || dimension === 'area';
  return false;
}

function unitHere(alias: string, dimension: string | undefined): MeasurementUnit | undefined {
  if (alias === 'm' && dimension === 'duration') return measurementUnits.get('min');
  if (alias === 'in' && dimension !== 'length') return undefined;
  return measurementUnits.get(alias);
}

/** The next "30 minutes" of "2 hours 30 minutes" or "10 in" of "5 ft 10 in", in `unit`'s dimension. */
function compoundPart(rest: string, unit: MeasurementUnit | undefined, dimension: string | undefined) {
  if (!unit) return undefined;
  const start = compoundJoin.exec(rest)?.[0] ?? '';
  const literal = compoundLiteral.exec(rest.slice(start.length))?.[0];
  if (!literal) return undefined;
  const word = matchLeadingAlias(rest.slice(start.length + literal.length), unitAliases);
  const partUnit = word ? unitHere(word.alias, dimension ?? unit.dimension) : undefined;
  if (!word || !partUnit || partUnit.dimension !== unit.dimension) return undefined;
  return { amount: Number(literal), unit: partUnit, rest: word.rest };
}
