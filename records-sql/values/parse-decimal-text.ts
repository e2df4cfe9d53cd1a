import { powerOfTen } from './powers-of-ten.ts';

const zero = BigInt(0);
const one = BigInt(1);
const five = BigInt(5);
const ten = BigInt(10);
const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
const isSpace = (character: string | undefined) => character === ' ' || character === '\t' || character === '\n' || character === '\v' || character === '\f' || character === '\r';

/** DuckDB keeps decimal digits only while they fit the integer its DECIMAL type is stored in. */
function storageDigits(width: number): number {
  return width <= 4 ? 4 : width <= 9 ? 9 : width <= 18 ? 18 : 38;
}

/**
 * Text to DECIMAL(width, scale) exactly as DuckDB's string cast reads it (TryDecimalStringCast:
 * IntegerCastLoop driving DecimalCastOperation), quirks included: spaces around, a sign, `1_000`,
 * `.5` and `5.`, an exponent (`1.2e-1`); digits past the scale round half away from zero, but an
 * exponent changes when they round. The unscaled value, or undefined when DuckDB would refuse it.
 */
export function parseDecimalText(text: string, width: number, scale: number): bigint | undefined {
  let start = 0;
  while (start < text.length && isSpace(text[start])) start += 1;
  if (start === text.length) return undefined;
  const body = text.slice(start);
  const negative = body[0] === '-';
  if (!negative && body.length > 1 && body[0] === '0' && /[xXbB]/.test(body[1]!)) return undefined;
  const state = new DecimalReader(width, scale);
  if (!state.read(body, negative)) return undefined;
  return negative ? -state.result : state.result;
}

/** The state of one cast, on the magnitude (DuckDB counts down for a negative number; the steps mirror). */
class DecimalReader {
  result = zero;
  private digitCount = 0;
  private decimalCount = 0;
  private roundSet = false;
  private shouldRound = false;
  private excessiveDecimals = 0;
  private exponentType: 'none' | 'positive' | 'negative' = 'none';
  private readonly limit: bigint;

  constructor(private readonly width: number, private readonly scale: number) {
    this.limit = powerOfTen(width);
  }

  read(buffer: string, negative: boolean): boolean {
    const startPosition = negative || buffer[0] === '+' ? 1 : 0;
    let position = startPosition;
    while (position < buffer.length) {
      if (!isDigit(buffer[position])) {
        if (buffer[position] === '.') {
          const numberBeforePeriod = position > startPosition;
          position += 1;
          const startDigit = position;
          while (position < buffer.length && isDigit(buffer[position])) {
            this.decimal(Number(buffer[position]));
            position += 1;
            if (position !== buffer.length && buffer[position] === '_') {
              position += 1;
              if (position === buffer.length || !isDigit(buffer[position])) return false;
            }
          }
          if (!(numberBeforePeriod || position > startDigit)) return false;
          if (position >= buffer.length) break;
        }
        if (isSpace(buffer[position])) {
          while (++position < buffer.length) if (!isSpace(buffer[position])) return false;
          break;
        }
        if (buffer[position] === 'e' || buffer[position] === 'E') {
          if (position === startPosition) return false;
          position += 1;
          if (position >= buffer.length) return false;
          const exponent = readExponent(buffer.slice(position));
          return exponent !== undefined && this.exponent(exponent);
        }
        return false;
      }
      if (!this.digit(Number(buffer[position]))) return false;
      position += 1;
      if (position !== buffer.length && buffer[position] === '_') {
        position += 1;
        if (position === buffer.length || !isDigit(buffer[position])) return false;
      }
    }
    return this.finish() && position > startPosition;
  }

  private digit(digit: number): boolean {
    if (this.result === zero && digit === 0) return true;
    if (this.digitCount === this.width - this.scale) return false;
    this.digitCount += 1;
    this.result = this.result * ten + BigInt(digit);
    return true;
  }

  private decimal(digit: number): void {
    if (this.decimalCount === this.scale && !this.roundSet) {
      this.roundSet = true;
      this.shouldRound = digit >= 5;
    }
    if (this.digitCount + this.decimalCount >= storageDigits(this.width)) return;
    this.decimalCount += 1;
    this.result = this.result * ten + BigInt(digit);
  }

  private exponent(exponent: number): boolean {
    const decimalExcess = this.decimalCount > this.scale ? this.decimalCount - this.scale : 0;
    if (exponent > 0) {
      this.exponentType = 'positive';
      if (decimalExcess > exponent) {
        this.excessiveDecimals = decimalExcess - exponent;
        exponent = 0;
      } else {
        exponent -= decimalExcess;
      }
    } else if (exponent < 0) {
      this.exponentType = 'negative';
    }
    if (!this.finish()) return false;
    if (exponent < 0) {
      let roundUp = false;
      for (let index = 0; index < -exponent; index += 1) {
        roundUp = this.result % ten >= five;
        this.result /= ten;
        if (this.result === zero) break;
      }
      if (roundUp) this.result += one;
      return true;
    }
    for (let index = 0; index < exponent; index += 1) if (!this.digit(0)) return false;
    return true;
  }

  private finish(): boolean {
    if (this.exponentType !== 'positive' && this.decimalCount > this.scale) this.excessiveDecimals = this.decimalCount - this.scale;
    if (this.excessiveDecimals) {
      let roundUp = false;
      for (let index = 0; index < this.excessiveDecimals; index += 1) {
        roundUp = this.result % ten >= five;
        this.result /= ten;
      }
      if (this.exponentType === 'positive' && roundUp) this.result += one;
      this.decimalCount = this.scale;
    }
    if (this.exponentType === 'none' && this.roundSet && this.shouldRound) this.result += one;
    for (let index = this.decimalCount; index < this.scale; index += 1) this.result *= ten;
    return this.result < this.limit;
  }
}

/** The exponent after `e`: a 16-bit integer, signed, digits with single underscores, a fraction ignored, spaces after. */
function readExponent(text: string): number | undefined {
  const match = /^([+-]?)([0-9]+(?:_[0-9]+)*)?(?:\.([0-9]+(?:_[0-9]+)*)?)?[ \t\n\v\f\r]*$/.exec(text);
  if (!match || (match[2] === undefined && match[3] === undefined)) return undefined;
  const value = Number(`${match[1]}${(match[2] ?? '0').replace(/_/g, '')}`);
  return value >= -32768 && value <= 32767 ? value : undefined;
}
