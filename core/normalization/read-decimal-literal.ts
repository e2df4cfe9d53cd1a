/**
 * A numeric literal at the start of a text: digits grouped by spaces or apostrophes ("1 234,5",
 * "1'000"), digits with dots and commas ("3.400,50", "1,234.5"), a bare fraction (".5"), each with
 * an optional exponent ("1e3"). Which mark is the decimal one is decided by `readDecimalLiteral`.
 */
export const decimalLiteralPattern = /^(?:\d{1,3}(?:[ '’]\d{3}(?!\d))+(?:[.,]\d+)?|\d+(?:[.,]\d+)*|[.,]\d+)(?:e[+-]?\d+)?/;

/** Spaces and apostrophes that group digits (the global one for `replace`). Patterns made once, not per literal read. */
const groupSpace = /[ '’]/;
const groupSpaces = /[ '’]/g;
const dotOrComma = /[.,]/;
const firstGroup = /^[1-9]\d{0,2}$/;
const leadingGroup = /^\d{1,3}$/;
const thousandsGroup = /^\d{3}$/;

/**
 * The value of a literal matched by `decimalLiteralPattern`, or undefined when its grouping is
 * impossible ("1,23,4"). The rule for dots and commas:
 * - both present: the last one is the decimal mark ("3.400,50" → 3400.5, "1,234.5" → 1234.5);
 * - grouped by spaces: a single dot or comma is the decimal mark ("1 234,5" → 1234.5);
 * - one mark used several times: thousands ("1.234.567" → 1234567);
 * - one mark used once, followed by exactly three digits after a 1–3 digit whole part not starting
 *   with 0 ("1,234", "1.234"): a comma is thousands (English reading); a dot is thousands only for
 *   money (`money`), since no currency accepted here has three decimal places, and a decimal
 *   point otherwise ("1.234 km" → 1.234) and before a magnitude word ("$1.055 million");
 * - any other single mark is the decimal mark ("3,5" → 3.5, "1234,567" → 1234.567);
 * - with an exponent the mantissa is one plain decimal ("1.055e5", "1,055e5" → 105500): a single
 *   mark is the decimal mark, and grouped digits are refused (nobody groups a mantissa).
 */
export function readDecimalLiteral(literal: string, reading: { money: boolean; magnitude?: boolean }): number | undefined {
  const exponentAt = literal.indexOf('e');
  const writtenMantissa = exponentAt < 0 ? literal : literal.slice(0, exponentAt);
  const exponent = exponentAt < 0 ? '' : literal.slice(exponentAt);
  const spaced = groupSpace.test(writtenMantissa);
  const mantissa = writtenMantissa.replace(groupSpaces, '');
  const lastDot = mantissa.lastIndexOf('.');
  const lastComma = mantissa.lastIndexOf(',');
  let digits: string | undefined;
  if (exponent) {
    const parts = mantissa.split(dotOrComma);
    if (!spaced && parts.length <= 2) digits = parts.length === 2 ? `${parts[0] || '0'}.${parts[1]}` : mantissa;
  } else if (lastDot >= 0 && lastComma >= 0) {
    const decimalMark = lastDot > lastComma ? '.' : ',';
    const groupMark = decimalMark === '.' ? ',' : '.';
    const [whole = '', fraction, ...extra] = mantissa.split(decimalMark);
    if (extra.length === 0 && !spaced && hasThousandsGroups(whole.split(groupMark))) {
      digits = `${whole.split(groupMark).join('')}.${fraction}`;
    }
  } else if (lastDot >= 0 || lastComma >= 0) {
    const parts = mantissa.split(lastDot >= 0 ? '.' : ',');
    const [whole = '', fraction = ''] = parts;
    if (parts.length > 2) digits = !spaced && hasThousandsGroups(parts) ? parts.join('') : undefined;
    else if (spaced) digits = `${whole}.${fraction}`;
    else {
      const looksGrouped = fraction.length === 3 && firstGroup.test(whole);
      const groupsThousands = lastComma >= 0 || (reading.money && !reading.magnitude);
      digits = looksGrouped && groupsThousands ? whole + fraction : `${whole || '0'}.${fraction}`;
    }
  } else digits = mantissa;
  if (digits === undefined) return undefined;
  const value = Number(digits + exponent);
  return Number.isFinite(value) ? value : undefined;
}

function hasThousandsGroups(groups: readonly string[]): boolean {
  return groups.every((group, index) => (index === 0 ? leadingGroup.test(group) : thousandsGroup.test(group)));
}
