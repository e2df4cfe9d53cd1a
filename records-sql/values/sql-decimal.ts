import { doublePowerOfTen, powerOfTen } from './powers-of-ten.ts';

const zero = BigInt(0);
/** DuckDB casts a decimal to DOUBLE in one division up to 2^53, in two parts beyond. */
const largestExactInDouble = BigInt(2) ** BigInt(53);

const halfWidth = BigInt(64);
const lowerMask = (BigInt(1) << halfWidth) - BigInt(1);
const two64 = 2 ** 64;

/** DuckDB's CastBigintToFloating: `lower + upper × 2^64` in doubles, with its own path when `upper` is -1. */
function hugeintToDouble(value: bigint): number {
  const upper = value >> halfWidth;
  const lower = value & lowerMask;
  if (upper === BigInt(-1)) return -Number(lowerMask - lower) - 1;
  return Number(lower) + Number(upper) * two64;
}

/**
 * A DECIMAL(width, scale) value as DuckDB keeps it: an exact integer count of 10^-scale units
 * (`unscaled`), so 1.10 is 110 at scale 2. A value knows its type, as a DATE does, because DuckDB
 * prints and computes with the type: 1.10 prints as "1.10", and 1.1 + 2.25 is DECIMAL(4,2) 3.35.
 */
export class SqlDecimal {
  constructor(readonly unscaled: bigint, readonly width: number, readonly scale: number) {}

  /** Not `type`: expression nodes are told apart by a `type` string, and a literal holds a decimal. */
  get sqlType(): `DECIMAL(${number},${number})` {
    return `DECIMAL(${this.width},${this.scale})`;
  }

  /**
   * DuckDB's text (DecimalToString): every digit of the scale, no exponent ("-0.50", "12",
   * "0.000"), and no whole part at all when the type has no room for one (DECIMAL(2,2) 0.25 is ".25").
   */
  toString(): string {
    const negative = this.unscaled < zero;
    const digits = (negative ? -this.unscaled : this.unscaled).toString();
    if (this.scale === 0) return `${negative ? '-' : ''}${digits}`;
    const padded = digits.padStart(this.scale + 1, '0');
    const whole = this.width > this.scale ? padded.slice(0, -this.scale) : '';
    return `${negative ? '-' : ''}${whole}.${padded.slice(-this.scale)}`;
  }

  /** Expression keys are JSON; a BigInt has no JSON form of its own. */
  toJSON(): string {
    return `${this.toString()}::${this.sqlType}`;
  }

  /**
   * The DOUBLE that DuckDB's cast gives (TryCastDecimalToFloatingPoint): one division up to 2^53,
   * else the whole part plus the fraction; a DECIMAL wider than 18 digits is a 128-bit integer,
   * which DuckDB makes a double from its two 64-bit halves, so rounding twice.
   */
  toDouble(): number {
    const toDouble = this.width > 18 ? hugeintToDouble : Number;
    const divisor = doublePowerOfTen(this.scale);
    const magnitude = this.unscaled < zero ? -this.unscaled : this.unscaled;
    if (magnitude <= largestExactInDouble || this.scale === 0) return toDouble(this.unscaled) / divisor;
    const power = powerOfTen(this.scale);
    return toDouble(this.unscaled / power) + toDouble(this.unscaled % power) / divisor;
  }

  /** The same number at a larger scale (exact); the caller checks it fits the width. */
  rescaled(scale: number, width = this.width): SqlDecimal {
    return new SqlDecimal(this.unscaled * powerOfTen(scale - this.scale), width, scale);
  }

  /** -1, 0 or 1 as `this` is below, equal to or above `other`, exactly, whatever their scales. */
  compareTo(other: SqlDecimal): number {
    if (this.scale === other.scale) return this.unscaled < other.unscaled ? -1 : this.unscaled > other.unscaled ? 1 : 0;
    const scale = Math.max(this.scale, other.scale);
    const left = this.unscaled * powerOfTen(scale - this.scale);
    const right = other.unscaled * powerOfTen(scale - other.scale);
    return left < right ? -1 : left > right ? 1 : 0;
  }
}
