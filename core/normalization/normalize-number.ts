import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { acceptedValue } from './accepted-value.ts';
import type { NormalizationResult } from './normalization-result.ts';
import { readQuantity } from './read-quantity.ts';
import { rejectValue } from './reject-value.ts';
import { resolveColumnUnit, type ColumnUnit } from './resolve-column-unit.ts';
import { roundSignificant } from './round-significant.ts';

/**
 * Normalize a value for a `number` or `integer` column into the column's unit and scale.
 *
 * - A JS number, and a text without a magnitude word ("1,200,000", "$45"), is taken as already in
 *   the column's scale: only magnitude words ("1.2M", "3.4 billion", "12k") are divided by `scale`.
 * - A unit of the column's dimension is converted ("1.2 km" → 1200 in a metres column); a text
 *   without a unit is taken as in the column's unit; "12%" is 12 in a percent column and 0.12 in a
 *   ratio column, while "0.12" stays 0.12 in either (no guessing).
 * - Currencies are never converted: another currency is a `currency_mismatch`; money in a
 *   non-money column, or a unit of another dimension, is a `unit_mismatch`.
 * - A column without a unit takes the number as written and checks no unit.
 * - An `integer` column rejects a non-whole result ("4.5") instead of rounding it.
 */
export function normalizeNumber(raw: unknown, attribute: AttributeDefinition): NormalizationResult {
  if (typeof raw !== 'string') return readNumber(raw, attribute);
  let known = readTexts.get(attribute);
  if (!known) readTexts.set(attribute, (known = new Map()));
  let result = known.get(raw);
  if (result === undefined) {
    if (known.size >= mostTextsKept) known.clear();
    known.set(raw, (result = readNumber(raw, attribute)));
  }
  return result;
}

/**
 * Texts already read, per attribute: a reply's value ("$108") is read again as a number of its
 * quote ("Price per night: $108"), and a column's values and labels recur from one document to the
 * next. The results are shared: callers read them and never change them.
 */
const readTexts = new WeakMap<AttributeDefinition, Map<string, NormalizationResult>>();
const mostTextsKept = 500;

function readNumber(raw: unknown, attribute: AttributeDefinition): NormalizationResult {
  const scale = columnScale(attribute);

  if (typeof raw === 'number') return Number.isFinite(raw) ? finished(attribute, raw, raw) : refuse(attribute, raw, 'not_a_number', 'is not a finite number');
  if (typeof raw === 'bigint') return Number.isSafeInteger(Number(raw)) ? finished(attribute, raw, Number(raw)) : refuse(attribute, raw, 'not_a_number', 'is too large to hold exactly');
  if (typeof raw !== 'string') return refuse(attribute, raw, 'not_a_number', 'is not a number');

  const column = resolveColumnUnit(attribute.unit);
  const reading = readQuantity(raw, column);
  if ('failure' in reading) return refuse(attribute, raw, reading.failure.code, reading.failure.reason);
  const { amount, magnitude, currency, unit } = reading.quantity;

  if (currency && column.kind === 'currency' && !currency.codes.includes(column.code)) {
    return refuse(attribute, raw, 'currency_mismatch', `is in ${currency.label} but the column is in ${column.code}`);
  }
  if (currency && column.kind !== 'currency' && column.kind !== 'none') {
    return refuse(attribute, raw, 'unit_mismatch', `is an amount of money but the column is in ${attribute.unit}`);
  }
  if (unit && column.kind !== 'none' && !(column.kind === 'measure' && column.unit.dimension === unit.dimension)) {
    return refuse(attribute, raw, 'unit_mismatch', `is ${describeDimension(unit.dimension)} (${unit.label}) but the column is in ${attribute.unit}${describeColumn(column)}`);
  }

  let value = amount;
  if (unit && column.kind === 'measure' && unit.toBase !== column.unit.toBase) value = (value * unit.toBase) / column.unit.toBase;
  if (magnitude !== undefined) value = (value * magnitude) / scale;
  if (value !== amount) value = roundSignificant(value);
  if (!Number.isFinite(value)) return refuse(attribute, raw, 'not_a_number', 'is not a finite number');
  return finished(attribute, raw, value === 0 ? 0 : value);
}

/** The refusal of `raw` for the column, saying what the column takes: spelled out only for a refusal, most values are read. */
function refuse(attribute: AttributeDefinition, raw: unknown, code: Parameters<typeof rejectValue>[1], reason: string): NormalizationResult {
  const scale = columnScale(attribute);
  const expected = `${attribute.kind === 'integer' ? 'a whole number' : 'a number'}${attribute.unit ? ` in ${attribute.unit}` : ''}${scale === 1 ? '' : ` at scale ${scale}`}`;
  return rejectValue(attribute, code, raw, expected, reason);
}

/**
 * The value read, checked for an integer column. Such a column is BIGINT; past 2^53 a JavaScript
 * number no longer holds every integer, so a larger one (a model's "99999999999999999999") is
 * refused rather than stored rounded or overflowing.
 */
function finished(attribute: AttributeDefinition, raw: unknown, value: number): NormalizationResult {
  if (attribute.kind !== 'integer') return acceptedValue(value);
  if (!Number.isInteger(value)) return refuse(attribute, raw, 'not_an_integer', 'is not a whole number');
  return Number.isSafeInteger(value) ? acceptedValue(value) : refuse(attribute, raw, 'not_a_number', 'is too large to hold exactly');
}

/** The column's scale: a positive finite `scale`, else 1. */
function columnScale(attribute: AttributeDefinition): number {
  return attribute.scale !== undefined && attribute.scale > 0 && Number.isFinite(attribute.scale) ? attribute.scale : 1;
}

function describeDimension(dimension: string): string {
  return dimension === 'proportion' ? 'a proportion' : dimension === 'area' ? 'an area' : `a ${dimension}`;
}

function describeColumn(column: ColumnUnit): string {
  return column.kind === 'measure' ? `, ${describeDimension(column.unit.dimension)}` : '';
}
