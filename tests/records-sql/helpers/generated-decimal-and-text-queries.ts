import fc from 'fast-check';
import type { SqlValue } from '../../../core/index.ts';
import type { GoldRecordTable } from './gold-record-tables.ts';

/**
 * Pieces of text where DuckDB's Unicode handling and JavaScript's part: ß and ẞ (upper case is one
 * letter in DuckDB, two in JavaScript), İ and ı, the ligature ﬁ, final sigma, the Kelvin sign,
 * a letter with a combining accent and the accent alone, emoji with a skin tone, a family joined
 * by zero-width joiners, flags (regional-indicator pairs), Hangul jamo, a Devanagari conjunct,
 * CR LF, and the characters SQL and LIKE treat specially.
 */
const textPieces = [
  'a', 'Z', 'k', ' ', 'ß', 'ẞ', 'İ', 'ı', 'i', 'I', 'ﬁ', 'Σ', 'σ', 'ς', 'é', 'e\u0301', '\u0301', 'K', 'ǅ', 'ŉ', 'ῼ',
  '👍', '🏽', '\u200d', '👨‍👩‍👧', '🇫🇷', '🇩', 'क्ष', 'क', '्', '\u1100', '\u1161', '\u11a8', '가', '\r\n', '\n', "'", '%', '_', '1.5',
];

const text = fc.array(fc.constantFrom(...textPieces), { maxLength: 5 }).map((pieces) => pieces.join(''));
const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** A number with a point and no exponent: DuckDB's DECIMAL literal, written as people and models write it (`12.50`, `.5`, `5.`, `-0.125`). */
const decimalLiteral = fc.tuple(fc.bigInt({ min: BigInt(0), max: BigInt(10) ** BigInt(14) }), fc.integer({ min: 0, max: 8 }), fc.boolean(), fc.constantFrom('', '', '', 'leading'))
  .map(([digits, scale, negative, form]) => {
    const padded = digits.toString().padStart(scale + 1, '0');
    let literal = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
    if (form === 'leading' && literal.startsWith('0.')) literal = literal.slice(1);
    return `${negative ? '-' : ''}${literal}`;
  });

/** Numbers as text, the way DuckDB's string cast reads them: spaces, signs, `1_000`, exponents, and some that are not numbers. */
const numericText = fc.tuple(
  fc.constantFrom('', ' ', '+', '-', ' -'),
  fc.oneof(decimalLiteral.map((literal) => literal.replace(/^-/, '')), fc.integer({ min: 0, max: 99999 }).map(String), fc.constantFrom('1_000.5', '5e-2', '1.2355e-1', '12.5e1', '.5', '5.', 'abc', '1,5', '', '0x10', '9'.repeat(20))),
  fc.constantFrom('', '', ' ', 'e2', 'e-3'),
).map(([prefix, body, suffix]) => `${prefix}${body}${suffix}`);

const integerLiteral = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0, 3, 10, 2147483647, 2147483648, -2147483648, 99999999999)).map(String);
const doubleLiteral = fc.oneof(decimalLiteral.map((literal) => `${literal}e0`), fc.constantFrom('CAST(0.1 AS DOUBLE)', "CAST('2.675' AS DOUBLE)", '1.005e0', '1e20'));
const columnNumber = fc.constantFrom('k', 'x', 'k', 'x');

/** Numeric expressions: literals of the three kinds, the columns, arithmetic, casts, rounding, lengths of text. */
const { numeric, textValue } = fc.letrec<{ numeric: string; textValue: string }>((tie) => ({
  numeric: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'expression' },
    decimalLiteral, decimalLiteral, integerLiteral, doubleLiteral, columnNumber, columnNumber,
    fc.tuple(tie('numeric'), fc.constantFrom('+', '-', '*', '*', '/', '%', '//'), tie('numeric')).map(([left, operator, right]) => `(${left} ${operator} ${right})`),
    tie('numeric').map((operand) => `-(${operand})`),
    fc.tuple(tie('numeric'), fc.integer({ min: 1, max: 38 }).chain((width) => fc.tuple(fc.constant(width), fc.integer({ min: 0, max: Math.min(width, 12) }))))
      .map(([operand, [width, scale]]) => `CAST(${operand} AS DECIMAL(${width},${scale}))`),
    fc.tuple(tie('numeric'), fc.constantFrom('DOUBLE', 'BIGINT', 'DECIMAL')).map(([operand, type]) => `CAST(${operand} AS ${type})`),
    fc.tuple(fc.oneof(numericText.map(quoted), fc.constant('t')), fc.constantFrom('CAST', 'TRY_CAST'), fc.constantFrom('DECIMAL(10,2)', 'DECIMAL(4,1)', 'DECIMAL(38,10)', 'DECIMAL(3,3)', 'BIGINT', 'DOUBLE'))
      .map(([operand, cast, type]) => `${cast}(${operand} AS ${type})`),
    fc.tuple(tie('numeric'), fc.option(fc.integer({ min: -4, max: 6 }), { nil: undefined })).map(([operand, places]) => `round(${operand}${places === undefined ? '' : `, ${places}`})`),
    fc.tuple(fc.constantFrom('abs', 'ceil', 'floor', 'trunc', 'sign'), tie('numeric')).map(([name, operand]) => `${name}(${operand})`),
    fc.tuple(fc.constantFrom('greatest', 'least', 'coalesce'), tie('numeric'), tie('numeric')).map(([name, left, right]) => `${name}(${left}, ${right})`),
    fc.tuple(tie('numeric'), tie('numeric'), tie('numeric')).map(([condition, then, otherwise]) => `CASE WHEN ${condition} > 0 THEN ${then} ELSE ${otherwise} END`),
    fc.tuple(fc.constantFrom('length', 'strlen'), tie('textValue')).map(([name, operand]) => `${name}(${operand})`),
  ),
  textValue: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'expression' },
    fc.constant('t'), fc.constant('t'), text.map(quoted),
    fc.tuple(fc.constantFrom('upper', 'lower', 'reverse'), tie('textValue')).map(([name, operand]) => `${name}(${operand})`),
    fc.tuple(fc.constantFrom('left', 'right'), tie('textValue'), fc.integer({ min: -6, max: 6 })).map(([name, operand, count]) => `${name}(${operand}, ${count})`),
    fc.tuple(tie('textValue'), fc.integer({ min: -6, max: 6 }), fc.option(fc.integer({ min: -6, max: 6 }), { nil: undefined }))
      .map(([operand, start, length]) => `substring(${operand}, ${start}${length === undefined ? '' : `, ${length}`})`),
    fc.tuple(tie('textValue'), tie('textValue')).map(([left, right]) => `(${left} || ${right})`),
    tie('numeric').map((operand) => `CAST(${operand} AS VARCHAR)`),
    fc.tuple(fc.constantFrom("printf('%.2f', ", "printf('%s', ", "format('{}', ", "concat('', "), tie('numeric')).map(([call, operand]) => `${call}${operand})`),
  ),
}));

const predicate = fc.oneof(
  fc.tuple(numeric, fc.constantFrom('=', '<>', '<', '<=', '>', '>='), numeric).map(([left, operator, right]) => `${left} ${operator} ${right}`),
  // With a DECIMAL among them, DuckDB compares an IN list and a BETWEEN in one common type, text cast to it.
  fc.tuple(numeric, decimalLiteral, fc.oneof(decimalLiteral, decimalLiteral.map(quoted))).map(([operand, first, second]) => `${operand} IN (${first}, ${second})`),
  // Text meets a DECIMAL as that DECIMAL type. (An integer literal is a 32-bit INTEGER in DuckDB and
  // text too large for it fails there; this engine has one 64-bit integer type, so integers are left out.)
  fc.tuple(fc.oneof(decimalLiteral, numeric.map((operand) => `CAST(${operand} AS DECIMAL(18,3))`)), fc.constantFrom('=', '<'), decimalLiteral.map(quoted))
    .map(([left, operator, right]) => `${left} ${operator} ${right}`),
  fc.tuple(textValue, fc.constantFrom('=', '<'), textValue).map(([left, operator, right]) => `${left} ${operator} ${right}`),
  // Bounds that cannot fail: DuckDB may rewrite BETWEEN into two comparisons and evaluate the cheaper
  // first, so whether a failing bound is ever evaluated is its optimizer's choice.
  fc.tuple(numeric, fc.oneof(decimalLiteral, integerLiteral, columnNumber), fc.oneof(decimalLiteral, integerLiteral, columnNumber))
    .map(([operand, low, high]) => `${operand} BETWEEN ${low} AND ${high}`),
  fc.tuple(textValue, text, fc.constantFrom('ILIKE', 'LIKE')).map(([operand, pattern, operator]) => `${operand} ${operator} ${quoted(`%${pattern}%`)}`),
);

// Not count(x): DuckDB's optimizer turns count of a never-NULL expression into count(*) without evaluating it.
const aggregate = fc.tuple(fc.constantFrom('sum', 'avg', 'min', 'max', 'median'), numeric).map(([name, operand]) => `${name}(${operand})`);

const row = fc.tuple(
  fc.oneof(fc.integer({ min: -10000, max: 10000 }), fc.constantFrom(0, 1, 7, 1000003, null)),
  fc.oneof(fc.constantFrom(0.1, 2.675, 1.005, -0.5, 1e20, 123456.789, 0, null), fc.integer({ min: -100000, max: 100000 }).map((cents) => cents / 100)),
  fc.oneof(text, fc.constant(null)),
);

/** One generated case: a table `g(id, k BIGINT, x DOUBLE, t VARCHAR)` and a query over it. */
export interface GeneratedCase {
  table: GoldRecordTable;
  sql: string;
}

function generatedCase(rows: Array<[number | null, number | null, string | null]>, sql: string): GeneratedCase {
  const table: GoldRecordTable = {
    table: 'g',
    records: {
      columns: [{ name: 'id', type: 'BIGINT' }, { name: 'k', type: 'BIGINT' }, { name: 'x', type: 'DOUBLE' }, { name: 't', type: 'VARCHAR' }],
      rows: rows.map(([k, x, t], index) => [index + 1, k, x, t] as SqlValue[]),
    },
    questions: [],
  };
  const literal = (value: SqlValue) => (value === null ? 'NULL' : typeof value === 'string' ? quoted(value) : String(value));
  // A failure prints as statements to paste into the DuckDB shell (and into a records-sql test).
  const repro = () => [
    'CREATE TABLE g (id BIGINT, k BIGINT, x DOUBLE, t VARCHAR);',
    ...(table.records.rows.length ? [`INSERT INTO g VALUES ${table.records.rows.map((values) => `(${values.map(literal).join(', ')})`).join(', ')};`] : []),
    `${sql};`,
  ].join('\n');
  return Object.assign({ table, sql }, { [fc.toStringMethod]: repro, toString: repro });
}

/**
 * Generated cases for the differential test: numbers as DuckDB types them (DECIMAL literals,
 * integers, DOUBLE), exact arithmetic, casts to DECIMAL(p,s), rounding, comparisons with numbers
 * and with text, and the text functions over generated Unicode; each row's values by `id`, or
 * aggregates over the whole table.
 */
export const generatedCases: fc.Arbitrary<GeneratedCase> = fc.tuple(
  fc.array(row, { minLength: 1, maxLength: 4 }),
  fc.oneof(
    { weight: 3, arbitrary: fc.array(fc.oneof(numeric, numeric, textValue, predicate), { minLength: 1, maxLength: 3 }).map((items) => `SELECT id, ${items.join(', ')} FROM g ORDER BY id`) },
    { weight: 1, arbitrary: fc.array(aggregate, { minLength: 1, maxLength: 2 }).map((items) => `SELECT ${items.join(', ')} FROM g`) },
    { weight: 1, arbitrary: fc.tuple(numeric, aggregate).map(([key, item]) => `SELECT ${key} AS v, count(*), ${item} FROM g GROUP BY v ORDER BY v`) },
  ),
).map(([rows, sql]) => generatedCase(rows, sql));
