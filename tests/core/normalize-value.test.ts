import { describe, expect, it } from 'vitest';
import type { AttributeDefinition } from '../../core/schema/attribute-definition.ts';
import { isMissingValue, normalizeValue, type NormalizedValue, type ValueIssueCode } from '../../core/normalization/index.ts';
import { matchLeadingAlias } from '../../core/normalization/match-leading-alias.ts';

/** A column fixture: a plain `number` column unless a row overrides one thing. */
function column(overrides: Partial<AttributeDefinition> = {}): AttributeDefinition {
  return { name: 'value', kind: 'number', description: 'a test column', examples: [], ...overrides };
}
const number = (unit?: string, scale?: number) => column({ unit, scale });
const integer = (unit?: string) => column({ kind: 'integer', unit });
const boolean = column({ name: 'has_pool', kind: 'boolean' });
const date = column({ name: 'opened_on', kind: 'date' });
const text = column({ name: 'hotel_name', kind: 'string' });

/** An expected rejection: the value is null and the issue has this code. */
const rejected = (code: ValueIssueCode) => ({ code });
type Expected = NormalizedValue | { code: ValueIssueCode };

function describeColumn(attribute: AttributeDefinition): string {
  const unit = attribute.unit ? ` ${attribute.unit}` : '';
  const scale = attribute.scale ? ` ×${attribute.scale}` : '';
  return `${attribute.kind}${unit}${scale}`;
}

const rows: Array<[unknown, AttributeDefinition, Expected]> = [
  // numbers: separators
  ['1,234.5', number(), 1234.5],
  ['1 234,5', number('EUR'), 1234.5],
  ['€ 3.400,50', number('EUR'), 3400.5],
  ['3.400,50 €', number('EUR'), 3400.5],
  ['1.234.567', number(), 1234567],
  ['1,23,4', number(), rejected('not_a_number')],
  ['3,5', number(), 3.5],
  ['0,125', number('EUR'), 0.125],
  // numbers: "1.234" rule — a decimal point, except for money where it groups thousands
  ['1.234', number(), 1.234],
  ['1.234', number('km'), 1.234],
  ['1.234', number('EUR'), 1234],
  ['€1.234', number(), 1234],
  ['1,234', number(), 1234],
  ['1.5', number('EUR'), 1.5],
  // numbers: magnitudes and scale
  ['$1.2M', number('USD'), 1_200_000],
  ['1.2 million', number('USD'), 1_200_000],
  ['USD 1.2m', number('USD'), 1_200_000],
  ['$1.2M', number('USD', 1e6), 1.2],
  ['USD 1.2m', number('USD', 1e6), 1.2],
  ['$3.4bn', number('USD'), 3.4e9],
  ['3.4 billion', number('USD', 1e6), 3400],
  ['12k', number(), 12_000],
  ['12k', number('USD', 1e6), 0.012],
  ['$5MM', number('USD'), 5_000_000],
  ['$1,200,000', number('USD', 1e6), 1_200_000],
  [1.2, number('USD', 1e6), 1.2],
  [1_200_000, number('USD', 1e6), 1_200_000],
  // numbers: percent
  ['12%', number('percent'), 12],
  ['12%', number('ratio'), 0.12],
  ['12 percent', number('fraction'), 0.12],
  ['0.12', number('percent'), 0.12],
  ['12', number('ratio'), 12],
  ['12%', number(), 12],
  ['12%', number('USD'), rejected('unit_mismatch')],
  // numbers: signs and hedges
  ['-5', number(), -5],
  ['−5', number(), -5],
  ['(1,234)', number(), -1234],
  ['($1,234.50)', number('USD'), -1234.5],
  ['-$5', number('USD'), -5],
  ['+3.5', number(), 3.5],
  ['$(1,234.50)', number('USD'), -1234.5],
  ['1e3', number(), 1000],
  // scientific notation: the mantissa is one plain decimal, never thousands (1.055e5 was 105,500,000)
  ['1.055e5', number('USD'), 105_500],
  ['1,055e5', number(), 105_500],
  ['$1.055e5', number(), 105_500],
  ['1,234.5e3', number(), rejected('not_a_number')],
  // a dot before a magnitude word is a decimal point, even for money
  ['$1.055 million', number('USD'), 1_055_000],
  ['1,234 million', number('USD'), 1_234_000_000],
  ['1.5E-3', number(), 0.0015],
  ['approx. 45', number(), 45],
  ['about 45', number(), 45],
  ['~45', number(), 45],
  ['45+', number(), 45],
  ['45 (approx.)', number(), 45],
  ['under 45', number(), rejected('not_a_number')],
  // numbers: scores, words, ranges, junk
  ['4.5/5', column({ name: 'rating' }), 4.5],
  ['8 out of 10', column({ name: 'rating' }), 8],
  ['1/2', number(), rejected('not_a_number')],
  ['6/5', number(), rejected('not_a_number')],
  ['twelve', number(), 12],
  ['a dozen', number(), 12],
  ['twenty-five km', number('m'), 25_000],
  ['10-20', number(), rejected('ambiguous')],
  ['$10 – $20', number('USD'), rejected('ambiguous')],
  ['45, 50', number(), rejected('ambiguous')],
  ['cheap', number(), rejected('not_a_number')],
  ['2021-03-05', number(), rejected('not_a_number')],
  ['1e400', number(), rejected('not_a_number')],
  [Number.NaN, number(), rejected('not_a_number')],
  [Number.POSITIVE_INFINITY, number(), rejected('not_a_number')],
  [true, number(), rejected('not_a_number')],
  [{ amount: 5 }, number(), rejected('not_a_number')],
  [[5], number(), rejected('not_a_number')],
  // currencies: detected, never converted
  ['€ 45', number('USD'), rejected('currency_mismatch')],
  ['45 EUR', number('USD'), rejected('currency_mismatch')],
  ['£12', number('USD'), rejected('currency_mismatch')],
  ['CHF 45', number('EUR'), rejected('currency_mismatch')],
  ['C$ 45', number('USD'), rejected('currency_mismatch')],
  ['¥1000', number('USD'), rejected('currency_mismatch')],
  ['45 euros', number('USD'), rejected('currency_mismatch')],
  ['¥1000', number('JPY'), 1000],
  ['45 dollars', number('USD'), 45],
  ['$45', number('CAD'), 45],
  ['US$ 45', number('USD'), 45],
  ['12 pounds', number('GBP'), 12],
  ['45 euros', number('EUR'), 45],
  ['45', number('EUR'), 45],
  ['$45 per night', number('USD'), 45],
  ['$45/night', number('USD'), 45],
  ['$45 (€40)', number('USD'), 45],
  ['45 in total', number('USD'), 45],
  ['$45', number('metres'), rejected('unit_mismatch')],
  // units: converted within a dimension, rejected across
  ['100 km', number('metres'), 100_000],
  ['1.2 km', number('m'), 1200],
  ['1.1 km', number('m'), 1100],
  ['2 hours', number('minutes'), 120],
  ['90 min', number('hours'), 1.5],
  ['500 g', number('kg'), 0.5],
  ['10 pounds', number('kg'), 4.5359237],
  ['5 mm', number('m'), 0.005],
  ['1 mi', number('km'), 1.609344],
  ['5m', number('minutes'), 5],
  ['5 ft 10 in', number('cm'), 177.8],
  ['2 hours 30 minutes', number('minutes'), 150],
  ['1 h 30 min', number('hours'), 1.5],
  ['100 m²', number('sq m'), 100],
  ['1 ha', number('sq m'), 10_000],
  ['1,000 sq ft', number('m2'), 92.90304],
  ['100', number('metres'), 100],
  ['3 kg', number('metres'), rejected('unit_mismatch')],
  ['3 stone', number('kg'), rejected('unit_mismatch')],
  ['2 years', number('days'), rejected('unit_mismatch')],
  ['100 km per hour', number('km'), rejected('unit_mismatch')],
  ['3 km', number('stars'), rejected('unit_mismatch')],
  ['3 km', number(), 3],
  // integers
  ['3 stars', integer(), 3],
  ['4.0', integer(), 4],
  ['4.5', integer(), rejected('not_an_integer')],
  [4.5, integer(), rejected('not_an_integer')],
  ['1.2k reviews', integer(), 1200],
  ['1,000+ reviews', integer('reviews'), 1000],
  ['4.5/5', integer(), rejected('not_an_integer')],
  ['1.5 hours', integer('minutes'), 90],
  [99999999999999999999, integer(), rejected('not_a_number')],
  ['9223372036854775808', integer(), rejected('not_a_number')],
  [2 ** 53 - 1, integer(), 2 ** 53 - 1],
  [99999999999999999999, number(), 99999999999999999999],
  // booleans
  [true, boolean, true],
  ['Yes', boolean, true],
  ['no', boolean, false],
  ['Y', boolean, true],
  ['N', boolean, false],
  ['False', boolean, false],
  ['1', boolean, true],
  ['0', boolean, false],
  [1, boolean, true],
  [0, boolean, false],
  ['available', boolean, true],
  ['Included', boolean, true],
  ['free', boolean, true],
  ['not available', boolean, false],
  ['none', boolean, false],
  ['unavailable', boolean, false],
  ['not included', boolean, false],
  ['Yes, on request', boolean, true],
  ['No (extra charge)', boolean, false],
  ['N/A', boolean, null],
  ['maybe', boolean, rejected('not_a_boolean')],
  ['no idea', boolean, rejected('not_a_boolean')],
  [2, boolean, rejected('not_a_boolean')],
  [{ value: true }, boolean, rejected('not_a_boolean')],
  [['yes'], boolean, rejected('not_a_boolean')],
  // dates
  ['2021-03-05', date, '2021-03-05'],
  ['2021-3-5', date, '2021-03-05'],
  ['2021/03/05', date, '2021-03-05'],
  ['5 March 2021', date, '2021-03-05'],
  ['March 5, 2021', date, '2021-03-05'],
  ['Mar 5 2021', date, '2021-03-05'],
  ['5th of March, 2021', date, '2021-03-05'],
  ['Friday, 5 March 2021', date, '2021-03-05'],
  ['5-Mar-2021', date, '2021-03-05'],
  ['05.03.2021', date, '2021-03-05'],
  ['2021-03-05T10:00:00Z', date, '2021-03-05'],
  ['2021-03-05T23:30:00-05:00', date, '2021-03-05'],
  ['03/05/2021', date, rejected('ambiguous')],
  ['03/25/2021', date, '2021-03-25'],
  ['25/03/2021', date, '2021-03-25'],
  ['05/05/2021', date, '2021-05-05'],
  ['13/13/2021', date, rejected('not_a_date')],
  ['2021-02-30', date, rejected('not_a_date')],
  ['2020-02-29', date, '2020-02-29'],
  ['1900-02-29', date, rejected('not_a_date')],
  ['2021', date, rejected('not_a_date')],
  ['March 2021', date, rejected('not_a_date')],
  ['5 Mar 21', date, rejected('not_a_date')],
  ['yesterday', date, rejected('not_a_date')],
  [20210305, date, rejected('not_a_date')],
  [new Date(Date.UTC(2021, 2, 5, 12)), date, '2021-03-05'],
  [{ year: 2021 }, date, rejected('not_a_date')],
  // strings
  ['  Hotel   Adlon \n Berlin ', text, 'Hotel Adlon Berlin'],
  [42, text, '42'],
  [false, text, 'false'],
  [Number.NaN, text, rejected('not_a_string')],
  [{ name: 'Adlon' }, text, rejected('not_a_string')],
  [['Adlon'], text, rejected('not_a_string')],
  // missing markers: null without an issue
  ['N/A', number(), null],
  ['—', number('USD'), null],
  ['not stated', date, null],
  ['none', number(), null],
  ['', text, null],
  [undefined, integer(), null],
  ['?', text, null],
];

describe('normalizeValue', () => {
  it.each(rows.map(([raw, attribute, expected]) => ({ raw, attribute, expected, where: describeColumn(attribute) })))(
    '$raw in a $where column → $expected',
    ({ raw, attribute, expected }) => {
      const result = normalizeValue(raw, attribute);
      if (expected !== null && typeof expected === 'object') {
        expect(result.value).toBeNull();
        expect(result.issue?.code).toBe(expected.code);
        expect(result.issue?.attribute).toBe(attribute.name);
      } else {
        expect(result).toEqual({ value: expected });
      }
    },
  );

  it('never converts between currencies', () => {
    for (const [raw, unit] of [['€ 45', 'USD'], ['$45', 'EUR'], ['45 GBP', 'EUR'], ['JPY 5000', 'CHF']] as const) {
      const result = normalizeValue(raw, number(unit));
      expect(result.value).toBeNull();
      expect(result.issue?.code).toBe('currency_mismatch');
    }
  });

  it('treats a bare number as already in the column\'s unit and scale', () => {
    const millionsOfUsd = number('USD', 1e6);
    expect(normalizeValue(3.4, millionsOfUsd).value).toBe(3.4);
    expect(normalizeValue('3.4', millionsOfUsd).value).toBe(3.4);
    expect(normalizeValue('3.4 million', millionsOfUsd).value).toBe(3.4);
    expect(normalizeValue('3.4 billion', millionsOfUsd).value).toBe(3400);
    expect(normalizeValue(1200, number('metres')).value).toBe(1200);
  });

  it('keeps 1M and 1B apart in one column, the failure the paper reports', () => {
    const revenue = column({ name: 'revenue', unit: 'USD', scale: 1e6 });
    expect(normalizeValue('$1M', revenue).value).toBe(1);
    expect(normalizeValue('$1B', revenue).value).toBe(1000);
  });

  it('rounds unit arithmetic to 12 significant digits but keeps written digits', () => {
    expect(normalizeValue('0.7 km', number('m')).value).toBe(700);
    expect(normalizeValue('123456789012345.6', number()).value).toBe(123456789012345.6);
  });

  it('writes one line naming the attribute, the received value and what was expected', () => {
    const result = normalizeValue('€ 45', column({ name: 'price_per_night', unit: 'USD' }));
    expect(result.issue).toEqual({
      attribute: 'price_per_night',
      code: 'currency_mismatch',
      received: '€ 45',
      expected: 'a number in USD',
      message: 'price_per_night: "€ 45" is in EUR but the column is in USD; expected a number in USD',
    });
    expect(normalizeValue('3 kg', column({ name: 'length', unit: 'metres' })).issue?.message).toBe(
      'length: "3 kg" is a mass (kg) but the column is in metres, a length; expected a number in metres',
    );
  });

  it('reads "none" as false in a boolean column but as missing elsewhere', () => {
    expect(isMissingValue('none')).toBe(true);
    expect(normalizeValue('none', boolean)).toEqual({ value: false });
    expect(normalizeValue('none', number())).toEqual({ value: null });
    expect(normalizeValue('unknown', boolean)).toEqual({ value: null });
  });

  it('never throws, whatever it is given', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const oddities: unknown[] = [cyclic, Symbol('x'), () => 1, 10n, { big: 10n }, new Date(Number.NaN), '\u0000', 'e'.repeat(10_000)];
    for (const kind of ['string', 'number', 'integer', 'boolean', 'date'] as const) {
      for (const raw of oddities) {
        const result = normalizeValue(raw, column({ kind }));
        if (result.issue) expect(result.issue.message.length).toBeLessThan(200);
      }
    }
  });
});

describe('isMissingValue', () => {
  it.each([null, undefined, '', '  ', 'N/A', 'n/a', 'NA', 'n.a.', 'N / A', 'none', 'null', 'unknown', 'Not stated.', 'not specified', 'not available', '-', '—', '?'])(
    'treats %j as missing',
    (raw) => expect(isMissingValue(raw)).toBe(true),
  );
  it.each([0, false, '0', 'no', 'nothing to report', [], {}, Number.NaN])('does not treat %j as missing', (raw) =>
    expect(isMissingValue(raw)).toBe(false),
  );
});

describe('matchLeadingAlias', () => {
  const aliases = ['k', 'km', 'kmh', 'm', 'mi', 'm2', 'ms', 'mm'];
  it.each([
    ['5 km away', 'km', ' away'],
    ['kmh', 'kmh', ''],
    // "kms" runs on into a letter as every alias that starts it does: none is read.
    ['kms', undefined, undefined],
    // "m2" may not run on into a digit, but "m" may: a shorter alias is tried after a longer one fails.
    ['m23', 'm', '23'],
    ['  mi.', 'mi', '.'],
    ['x', undefined, undefined],
  ])('reads the longest alias that starts %j and does not run on: %s', (text, alias, rest) => {
    const match = matchLeadingAlias(text.replace(/^5 /, ''), aliases);
    expect(match?.alias).toBe(alias);
    expect(match?.rest).toBe(rest);
  });

  it('gives the same reading from a list whatever the order it lists its aliases in', () => {
    for (const text of ['km/h', 'mm', 'm', 'mi', 'ms', 'kmh']) {
      expect(matchLeadingAlias(text, [...aliases].reverse())).toEqual(matchLeadingAlias(text, aliases));
    }
  });
});
