/** One character (code point) of any kind: LIKE's `_`. */
const anyCharacter = Symbol('any character');

/** Literal runs and `_`s between two `%`s. */
type Segment = Array<string | typeof anyCharacter>;

/**
 * A LIKE pattern (`%` any run, `_` one character, `escape` makes the next character literal),
 * matched without backtracking: the pattern is split at its `%`s, the first part must match at the
 * start, the last at the end, and each one between at its leftmost place after the one before.
 * That greedy choice is always right, and it reads the text at most once per part: time is
 * bounded by text length × pattern length, whatever the pattern (`'%a%a%a%a%b'` included).
 */
export class LikePattern {
  private readonly segments: Segment[] = [[]];

  constructor(pattern: string, escape: string | undefined) {
    const characters = Array.from(pattern);
    for (let index = 0; index < characters.length; index += 1) {
      const character = characters[index]!;
      const segment = this.segments[this.segments.length - 1]!;
      if (escape !== undefined && character === escape) {
        index += 1;
        appendLiteral(segment, characters[index] ?? '');
      } else if (character === '%') {
        this.segments.push([]);
      } else if (character === '_') {
        segment.push(anyCharacter);
      } else {
        appendLiteral(segment, character);
      }
    }
  }

  matches(text: string): boolean {
    const segments = this.segments;
    const first = segments[0]!;
    if (segments.length === 1) return matchAt(text, 0, first) === text.length;
    let position = matchAt(text, 0, first);
    for (let index = 1; index < segments.length - 1 && position >= 0; index += 1) position = findFrom(text, position, segments[index]!);
    if (position < 0) return false;
    const start = matchBackwardFrom(text, text.length, segments[segments.length - 1]!);
    return start >= position;
  }
}

function appendLiteral(segment: Segment, character: string): void {
  const last = segment[segment.length - 1];
  if (typeof last === 'string') segment[segment.length - 1] = last + character;
  else segment.push(character);
}

function characterWidth(text: string, position: number): number {
  return text.codePointAt(position)! > 0xffff ? 2 : 1;
}

/** Where `segment` ends when it matches at `position`, or -1. */
function matchAt(text: string, position: number, segment: Segment): number {
  for (const part of segment) {
    if (part === anyCharacter) {
      if (position >= text.length) return -1;
      position += characterWidth(text, position);
    } else {
      if (!text.startsWith(part, position)) return -1;
      position += part.length;
    }
  }
  return position;
}

/** Where `segment` starts when it matches ending at `end`, or -1. */
function matchBackwardFrom(text: string, end: number, segment: Segment): number {
  for (let index = segment.length - 1; index >= 0; index -= 1) {
    const part = segment[index]!;
    if (part === anyCharacter) {
      if (end <= 0) return -1;
      end -= end >= 2 && text.codePointAt(end - 2)! > 0xffff ? 2 : 1;
    } else {
      if (end < part.length || !text.startsWith(part, end - part.length)) return -1;
      end -= part.length;
    }
  }
  return end;
}

/** Where the leftmost match of `segment` at or after `from` ends, or -1. */
function findFrom(text: string, from: number, segment: Segment): number {
  const anchor = segment.find((part): part is string => typeof part === 'string');
  for (let start = from; start <= text.length; start += start < text.length ? characterWidth(text, start) : 1) {
    if (anchor !== undefined && segment[0] === anchor) {
      const found = text.indexOf(anchor, start);
      if (found < 0) return -1;
      start = found;
    }
    const end = matchAt(text, start, segment);
    if (end >= 0) return end;
  }
  return -1;
}
