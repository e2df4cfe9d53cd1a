/**
 * How good a place the boundary before a unit is for cutting: headings (h1 best … h6), then
 * paragraph starts, line starts, sentence starts, word starts, and hard cuts inside a word.
 */
const paragraphStrength = 3;
/** Headings are 10 minus their level: 9 for `#` down to 4 for `######`. */
const weakestHeadingStrength = 4;
const lineStrength = 2;
const sentenceStrength = 1;
const wordStrength = 0;
const hardCutStrength = -1;

/** Appended to the heading lines repeated at the top of a part that continues their section. */
const continuedMarker = ' (continued)';

/** A stretch of the text that is never cut; the units of a text concatenate back to it exactly. */
interface Unit {
  readonly text: string;
  /** Strength of the boundary before this unit. */
  readonly strength: number;
  /** Heading lines of the sections this unit sits in, outermost first (a heading line sits in its own). */
  readonly headingPath: readonly string[];
  readonly isHeading: boolean;
}

/** How far a part may stray from its share of the text to end before a section heading, or another boundary. */
const headingTolerance = 0.25;
const boundaryTolerance = 0.15;
/** Strength points a cut loses per share it strays: an `##` heading 20% off ranks below a `###` one on target. */
const strayPenalty = 12;

/** Extra part counts tried when cuts at good boundaries leave more text than the planned parts hold. */
const maximumExtraPartCounts = 8;

/**
 * Splits `text` into parts of at most `maxTokens` tokens each (as `countTokens` counts them), or
 * returns `[text]` unchanged when it fits.
 *
 * Parts are balanced: a text that needs k parts is cut into k parts of near-equal size rather than
 * k − 1 full parts and a small tail. Each part ends at a strong boundary near an equal share of what
 * is left: before a markdown heading (higher levels first) within 25% of the share, else before a
 * paragraph, a line, a sentence, a word within 15%; strength is weighed against the distance from
 * the share, so a slightly weaker boundary on target beats a stronger one far off. Parts are built from units that are
 * never cut: lines, or for over-long lines sentences, words and, for a word longer than a part, hard
 * cuts. A part never starts mid-word unless a single word exceeds the limit.
 *
 * A part that starts inside a section begins with the heading lines of the sections it continues, each
 * marked ` (continued)`, then a blank line (for instance `# 2014 FIFA World Cup (continued)` /
 * `## Group stage (continued)`), so that every part carries its context. These repeated lines are
 * limited to a quarter of `maxTokens` (outermost dropped first) and count towards the limit.
 * Apart from them, the parts are consecutive stretches of the text with whitespace trimmed at their
 * edges: nothing is lost or repeated.
 *
 * The only part that may exceed `maxTokens` is a single character that alone counts more (a
 * `maxTokens` of 1 with an emoji).
 *
 * With `balanced: false` parts are packed greedily instead (fixed-size chunks, and a first part that
 * is the longest prefix that fits): each part is filled and ends at the strongest boundary past its
 * first quarter.
 */
export function splitDocument(
  text: string,
  maxTokens: number,
  countTokens: (text: string) => number,
  { balanced = true }: SplitOptions = {},
): string[] {
  if (!(maxTokens >= 1)) throw new RangeError(`maxTokens must be at least 1, got ${maxTokens}`);
  if (countTokens(text) <= maxTokens) return [text];

  const headingAllowance = Math.floor(maxTokens / 4);
  const units = textUnits(text, maxTokens - headingAllowance, countTokens);
  const cumulativeTokens = [0];
  for (const unit of units) cumulativeTokens.push(cumulativeTokens[cumulativeTokens.length - 1]! + countTokens(unit.text));
  const layout: Layout = {
    units,
    maxTokens,
    headingAllowance,
    countTokens,
    estimate: (start, end) => cumulativeTokens[end]! - cumulativeTokens[start]!,
  };

  if (!balanced) return packParts(layout, undefined);
  // Cuts at good boundaries may leave more than the planned parts can hold; then one more part is planned.
  const fewest = Math.max(2, Math.ceil(layout.estimate(0, units.length) / maxTokens));
  let best: string[] | undefined;
  for (let partCount = fewest; partCount <= fewest + maximumExtraPartCounts; partCount += 1) {
    const parts = packParts(layout, partCount);
    if (!best || parts.length < best.length) best = parts;
    if (parts.length <= partCount) break;
  }
  return best!;
}

export interface SplitOptions {
  /** Near-equal parts (the default), or greedily filled ones. */
  balanced?: boolean;
}

interface Layout {
  readonly units: readonly Unit[];
  readonly maxTokens: number;
  readonly headingAllowance: number;
  readonly countTokens: (text: string) => number;
  /** Tokens of units `start` to `end - 1`, as the sum of their own counts. */
  readonly estimate: (start: number, end: number) => number;
}

/**
 * The parts when aiming for `partCount` of them, more when the text does not fit in that many;
 * greedily filled parts when `partCount` is undefined.
 */
function packParts(layout: Layout, partCount: number | undefined): string[] {
  const { units, maxTokens, countTokens, estimate } = layout;
  const parts: string[] = [];
  let start = 0;
  while (start < units.length) {
    const heading = continuedHeadings(units[start]!, layout.headingAllowance, countTokens);
    const budget = maxTokens - heading.tokens;
    let end = start + 1;
    while (end < units.length && estimate(start, end + 1) <= budget) end += 1;
    if (end < units.length) {
      end = partCount === undefined
        ? greedyCut(layout, start, end, budget)
        : balancedCut(layout, start, end, Math.max(2, partCount - parts.length), budget);
    }

    // The estimate adds up unit counts; the part itself is counted before it is accepted.
    let part = assemblePart(heading.text, units, start, end);
    while (end > start + 1 && countTokens(part) > maxTokens) {
      end -= 1;
      part = assemblePart(heading.text, units, start, end);
    }
    if (heading.text !== '' && countTokens(part) > maxTokens) part = assemblePart('', units, start, end);
    if (part !== '') parts.push(part);
    start = end;
  }
  return parts;
}

/**
 * Where to end a part that starts at unit `start` and can hold at most the units before `latest`:
 * aim at an equal share of what is left over `partsLeft` parts, and within the tolerance around it
 * (wider for headings; never so early that the parts left could not hold the rest) take the boundary
 * with the best strength less its stray penalty. Without a cut in that window, the cut closest to the
 * share.
 */
function balancedCut(layout: Layout, start: number, latest: number, partsLeft: number, budget: number): number {
  const { units, estimate } = layout;
  const remaining = estimate(start, units.length);
  const share = remaining / partsLeft;
  const earliest = remaining - (partsLeft - 1) * budget;
  const distance = (cut: number) => Math.abs(estimate(start, cut) - share);
  let best: number | undefined;
  let bestScore = -Infinity;
  let closest = latest;
  for (let cut = latest; cut > start; cut -= 1) {
    const size = estimate(start, cut);
    if (distance(cut) < distance(closest)) closest = cut;
    if (size < earliest || size < share * (1 - headingTolerance)) break;
    const strength = units[cut]!.strength;
    const tolerance = strength >= weakestHeadingStrength ? headingTolerance : boundaryTolerance;
    if (distance(cut) > share * tolerance) continue;
    const score = strength - (strayPenalty * distance(cut)) / share;
    if (score > bestScore) {
      best = cut;
      bestScore = score;
    }
  }
  return best ?? closest;
}

/**
 * Where to end a filled part that holds units `start` to `end - 1` and cannot take unit `end`: before
 * the unit with the strongest boundary (the latest among equals), looking only at cuts that leave the
 * part at least a quarter full when there are any, so that a heading near the top does not leave a stub.
 */
function greedyCut(layout: Layout, start: number, end: number, budget: number): number {
  const { units, estimate } = layout;
  const fullEnough = (cut: number): boolean => estimate(start, cut) >= budget / 4;
  const anyFullEnough = fullEnough(end);
  let best = end;
  for (let cut = end - 1; cut > start; cut -= 1) {
    if (anyFullEnough && !fullEnough(cut)) break;
    if (units[cut]!.strength > units[best]!.strength) best = cut;
  }
  return best;
}

function assemblePart(headingText: string, units: readonly Unit[], start: number, end: number): string {
  let body = '';
  for (let index = start; index < end; index += 1) body += units[index]!.text;
  body = body.trim();
  if (body === '') return '';
  return headingText === '' ? body : `${headingText}\n\n${body}`;
}

/**
 * Heading lines to repeat at the top of a part starting at `unit`: the sections it continues (a part
 * starting at a heading continues only that heading's ancestors), outermost dropped first until they fit
 * in `allowance` tokens together with the blank line after them.
 */
function continuedHeadings(
  unit: Unit,
  allowance: number,
  countTokens: (text: string) => number,
): { text: string; tokens: number } {
  const continued = unit.isHeading ? unit.headingPath.slice(0, -1) : unit.headingPath;
  for (let first = 0; first < continued.length; first += 1) {
    const text = continued.slice(first).map((line) => line + continuedMarker).join('\n');
    const tokens = countTokens(`${text}\n\n`);
    if (tokens <= allowance) return { text, tokens };
  }
  return { text: '', tokens: 0 };
}

/**
 * The text as units: one per line, blank lines joined to the line before them, and lines over `unitLimit`
 * tokens divided further. Heading lines inside ``` or ~~~ fences are code, not headings.
 */
function textUnits(text: string, unitLimit: number, countTokens: (text: string) => number): Unit[] {
  const units: Unit[] = [];
  const headingStack: { level: number; line: string }[] = [];
  let headingPath: readonly string[] = [];
  let afterBlankLine = false;
  let insideFence = false;

  for (const line of text.split(/(?<=\n)/)) {
    const previous = units[units.length - 1];
    if (line.trim() === '' && previous) {
      units[units.length - 1] = { ...previous, text: previous.text + line };
      afterBlankLine = true;
      continue;
    }
    const headingMatch = insideFence ? null : /^(#{1,6})[ \t]+\S/.exec(line);
    if (/^\s*(```|~~~)/.test(line)) insideFence = !insideFence;
    let strength = afterBlankLine ? paragraphStrength : lineStrength;
    if (headingMatch) {
      const level = headingMatch[1]!.length;
      while (headingStack.length > 0 && headingStack[headingStack.length - 1]!.level >= level) headingStack.pop();
      headingStack.push({ level, line: line.trim() });
      headingPath = headingStack.map((heading) => heading.line);
      strength = 10 - level;
    }
    afterBlankLine = false;
    const pieces = countTokens(line) <= unitLimit ? [{ text: line, strength }] : dividedLine(line, strength, unitLimit, countTokens);
    pieces.forEach((piece, index) => {
      units.push({ ...piece, headingPath, isHeading: headingMatch !== null && index === 0 });
    });
  }
  return units;
}

/**
 * An over-long line as sentences, over-long sentences as words, over-long words as hard cuts. The
 * whitespace between pieces starts the next piece (as in the tokenizer's own pre-split, which keeps the
 * estimate additive); the first piece keeps the line's boundary strength.
 */
function dividedLine(
  line: string,
  strength: number,
  unitLimit: number,
  countTokens: (text: string) => number,
): { text: string; strength: number }[] {
  const levels = [
    { strength: sentenceStrength, cutPattern: /[.!?…]+["'”’)\]]*(?=\s+\S)/g, cutAfterMatch: true },
    { strength: wordStrength, cutPattern: /\s+(?=\S)/g, cutAfterMatch: false },
  ];
  const divide = (piece: string, pieceStrength: number, level: number): { text: string; strength: number }[] => {
    if (countTokens(piece) <= unitLimit) return [{ text: piece, strength: pieceStrength }];
    const splitter = levels[level];
    if (!splitter) {
      return hardCuts(piece, unitLimit, countTokens).map((chunk, index) => ({
        text: chunk,
        strength: index === 0 ? pieceStrength : hardCutStrength,
      }));
    }
    const fragments = fragmentsAt(piece, splitter.cutPattern, splitter.cutAfterMatch);
    return fragments.flatMap((fragment, index) =>
      divide(fragment, index === 0 ? pieceStrength : splitter.strength, level + 1),
    );
  };
  return divide(line, strength, 0);
}

function fragmentsAt(text: string, cutPattern: RegExp, cutAfterMatch: boolean): string[] {
  const fragments: string[] = [];
  let fragmentStart = 0;
  for (const match of text.matchAll(cutPattern)) {
    const cut = cutAfterMatch ? match.index + match[0].length : match.index;
    if (cut <= fragmentStart || text.slice(fragmentStart, cut).trim() === '') continue;
    fragments.push(text.slice(fragmentStart, cut));
    fragmentStart = cut;
  }
  fragments.push(text.slice(fragmentStart));
  return fragments;
}

/** Consecutive chunks of at most `limit` tokens, never splitting a surrogate pair; at least one code point each. */
function hardCuts(text: string, limit: number, countTokens: (text: string) => number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest !== '') {
    let length = Math.min(rest.length, limit * 4);
    for (;;) {
      length = withoutSplitPair(rest, length);
      const tokens = countTokens(rest.slice(0, length));
      if (tokens <= limit || length <= 2) break;
      length = Math.max(1, Math.min(length - 1, Math.floor((length * limit) / tokens)));
    }
    if (length === 2 && countTokens(rest.slice(0, 2)) > limit && !isSurrogatePair(rest, 0)) length = 1;
    chunks.push(rest.slice(0, length));
    rest = rest.slice(length);
  }
  return chunks;
}

/** `length` moved back by one when it would end between the halves of a surrogate pair, forward if that empties it. */
function withoutSplitPair(text: string, length: number): number {
  if (length >= text.length || !isSurrogatePair(text, length - 1)) return length;
  return length > 1 ? length - 1 : 2;
}

function isSurrogatePair(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  const low = text.charCodeAt(index + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
