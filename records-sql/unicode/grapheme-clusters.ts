import { CodePointClasses } from './code-point-classes.ts';
import { firstHangulSyllable, graphemeClasses, hangulSyllablesPerLeadingConsonantAndVowel, type BoundClass, type ConjunctClass, type GraphemeClassLetter } from './grapheme-classes.ts';
import { graphemeBreakTable } from './grapheme-break-table.ts';

// utf8proc's numbers for the classes: the rules below compare them (GB4's "CR to CONTROL" range).
const boundNumbers: Record<BoundClass, number> = {
  START: 0, OTHER: 1, CR: 2, LF: 3, CONTROL: 4, EXTEND: 5, L: 6, V: 7, T: 8, LV: 9, LVT: 10,
  REGIONAL_INDICATOR: 11, SPACINGMARK: 12, PREPEND: 13, ZWJ: 14, EXTENDED_PICTOGRAPHIC: 19, LV_OR_LVT: -1,
};
const conjunctNumbers: Record<ConjunctClass, number> = { NONE: 0, LINKER: 1, CONSONANT: 2, EXTEND: 3 };
const [START, OTHER, CR, LF, CONTROL, EXTEND, L, V, T, LV, LVT, REGIONAL_INDICATOR, SPACINGMARK, PREPEND, ZWJ] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
const EXTENDED_PICTOGRAPHIC = 19;
/** An extended pictographic followed by a zero-width joiner (utf8proc's E_ZWG state). */
const PICTOGRAPHIC_JOINER = 20;
const [CONJUNCT_NONE, CONJUNCT_LINKER, CONJUNCT_CONSONANT, CONJUNCT_EXTEND] = [0, 1, 2, 3];

const table = new CodePointClasses(graphemeBreakTable);

function classesOf(codePoint: number): [bound: number, conjunct: number] {
  const { bound, conjunct } = graphemeClasses[table.classOf(codePoint) as GraphemeClassLetter];
  if (bound === 'LV_OR_LVT') return [(codePoint - firstHangulSyllable) % hangulSyllablesPerLeadingConsonantAndVowel === 0 ? LV : LVT, CONJUNCT_NONE];
  return [boundNumbers[bound], conjunctNumbers[conjunct]];
}

/** utf8proc's grapheme_break_simple: whether the rules allow a break between two bound classes. */
function breakAllowed(left: number, right: number): boolean {
  if (left === START) return true;
  if (left === CR && right === LF) return false;
  if (left >= CR && left <= CONTROL) return true;
  if (right >= CR && right <= CONTROL) return true;
  if (left === L && (right === L || right === V || right === LV || right === LVT)) return false;
  if ((left === LV || left === V) && (right === V || right === T)) return false;
  if ((left === LVT || left === T) && right === T) return false;
  if (right === EXTEND || right === ZWJ || right === SPACINGMARK || left === PREPEND) return false;
  if (left === PICTOGRAPHIC_JOINER && right === EXTENDED_PICTOGRAPHIC) return false;
  if (left === REGIONAL_INDICATOR && right === REGIONAL_INDICATOR) return false;
  return true;
}

/**
 * Text split into grapheme clusters exactly as DuckDB splits it (`reverse`, `length_grapheme`):
 * utf8proc's grapheme_break_extended, state and all, over the code-point classes DuckDB's own
 * utf8proc gives (tests/records-sql/helpers/duckdb-unicode-properties.ts reads them from DuckDB).
 * Its quirks are kept on purpose: the state starts afresh at each cluster, as DuckDB's iterator
 * starts it, and a state that comes back to 0 is read as "not started".
 */
export function graphemeClusters(text: string): string[] {
  const characters = Array.from(text);
  const classes = characters.map((character) => classesOf(character.codePointAt(0)!));
  const clusters: string[] = [];
  let start = 0;
  while (start < characters.length) {
    let state = 0;
    let end = start + 1;
    for (; end < characters.length; end += 1) {
      const [leftBound, leftConjunct] = classes[end - 1]!;
      const [rightBound, rightConjunct] = classes[end]!;
      let stateBound: number;
      let stateConjunct: number;
      if (state === 0) {
        stateBound = leftBound;
        stateConjunct = leftConjunct === CONJUNCT_CONSONANT ? leftConjunct : CONJUNCT_NONE;
      } else {
        stateBound = state & 0xff;
        stateConjunct = state >> 8;
      }
      const breaks = breakAllowed(stateBound, rightBound) && !(stateConjunct === CONJUNCT_LINKER && rightConjunct === CONJUNCT_CONSONANT);
      if (rightConjunct === CONJUNCT_CONSONANT || stateConjunct === CONJUNCT_CONSONANT || stateConjunct === CONJUNCT_EXTEND) stateConjunct = rightConjunct;
      else if (stateConjunct === CONJUNCT_LINKER) stateConjunct = rightConjunct === CONJUNCT_EXTEND ? CONJUNCT_LINKER : rightConjunct;
      if (stateBound === rightBound && rightBound === REGIONAL_INDICATOR) stateBound = OTHER;
      else if (stateBound === EXTENDED_PICTOGRAPHIC) stateBound = rightBound === EXTEND ? EXTENDED_PICTOGRAPHIC : rightBound === ZWJ ? PICTOGRAPHIC_JOINER : rightBound;
      else stateBound = rightBound;
      state = stateBound + (stateConjunct << 8);
      if (breaks) break;
    }
    clusters.push(characters.slice(start, end).join(''));
    start = end;
  }
  return clusters;
}
