/**
 * mulberry32: a small 32-bit PRNG returning floats in [0, 1). The same sequence on every platform,
 * which is what the sample-corpus generator, the benchmark corpus and the stand-in's fault draws need.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `seededRandom` with the draws a generator needs: integers, chances, picks and shuffles. */
export class SeededRandom {
  private readonly nextFloat: () => number;

  constructor(seed: number) {
    this.nextFloat = seededRandom(seed);
  }

  next(): number {
    return this.nextFloat();
  }

  /** An integer in [minimum, maximum], both included. */
  integer(minimum: number, maximum: number): number {
    return minimum + Math.floor(this.next() * (maximum - minimum + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.next() * (index + 1));
      [copy[index], copy[other]] = [copy[other]!, copy[index]!];
    }
    return copy;
  }
}
