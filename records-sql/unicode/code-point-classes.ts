/**
 * A table that gives every code point a one-letter class, kept as runs: `"0c,ar,bn,…"` says code
 * points from 0 (base 36) are class `c`, from 0xa class `r`, from 0xb class `n`, and so on to the
 * next run. It is decoded on its first lookup, not when the bundle loads (Apps Script evaluates
 * the whole bundle on every call).
 */
export class CodePointClasses {
  private starts: number[] | undefined;
  private letters: string[] = [];

  constructor(private readonly encoded: string) {}

  /** The class letter of `codePoint` (binary search over the runs). */
  classOf(codePoint: number): string {
    const starts = this.starts ?? this.decode();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= codePoint) low = middle;
      else high = middle - 1;
    }
    return this.letters[low]!;
  }

  private decode(): number[] {
    const starts: number[] = [];
    for (const run of this.encoded.split(',')) {
      starts.push(parseInt(run.slice(0, -1), 36));
      this.letters.push(run.slice(-1));
    }
    this.starts = starts;
    return starts;
  }
}
