import type { DuckDBConnection } from '@duckdb/node-api';
import { firstHangulSyllable, graphemeClasses, hangulSyllablesPerLeadingConsonantAndVowel, type GraphemeClassLetter } from '../../../records-sql/unicode/grapheme-classes.ts';

/** Every Unicode scalar value (surrogates are not characters and DuckDB's chr() refuses them), as column `i`. */
export const everyCodePoint = 'SELECT range::INTEGER AS i FROM range(0, 55296) UNION ALL SELECT range::INTEGER FROM range(57344, 1114112)';
const lastCodePoint = 0x10ffff;

type ProbeName = 'extendsPrevious' | 'breaksBeforeMark' | 'joinsAfterPrepend' | 'prepends' | 'leadsJamo' | 'followsLeadingJamo' | 'followsLvSyllable'
  | 'followsLvtSyllable' | 'leadsVowelJamo' | 'followsRegionalIndicator' | 'followsEmojiJoiner' | 'joinsEmojiPair' | 'foldsIntoEmoji' | 'followsLinker'
  | 'linksConsonants' | 'extendsConjunct';
type Probe = { [name in ProbeName]: boolean } & { i: number };

/**
 * How DuckDB's utf8proc classes each code point for grapheme clusters, found by asking DuckDB
 * (`length_grapheme`) whether the code point joins its neighbours in strings built to tell the
 * classes apart: 'é' + X joins when X extends what comes before (Extend, ZWJ, SpacingMark); X +
 * U+0301 splits when X is a control; X + 'é' joins when X is a Prepend; Hangul jamo join by their
 * L/V/T rules; an emoji + ZWJ + X joins when X is pictographic; क + ् + X when X is a conjunct
 * consonant. Every probe holds a non-ASCII character, so DuckDB takes its utf8proc path (an ASCII
 * string is cut byte by byte). `codePoints` is SQL giving column `i`; code points of class `o`
 * (Other, no conjunct role) are left out of the answer.
 */
export async function readGraphemeClassLetters(connection: DuckDBConnection, codePoints: string): Promise<Map<number, GraphemeClassLetter>> {
  const joins = (parts: string) => `length_grapheme(${parts}) = 1`;
  const probes: Record<ProbeName, string> = {
    extendsPrevious: joins(`'é' || x`),
    breaksBeforeMark: `length_grapheme(x || chr(769)) = 2`,
    joinsAfterPrepend: joins('chr(1536) || x'),
    prepends: joins(`x || 'é'`),
    leadsJamo: joins('x || chr(4352)'),
    followsLeadingJamo: joins('chr(4352) || x'),
    followsLvSyllable: joins('chr(44032) || x'),
    followsLvtSyllable: joins('chr(44033) || x'),
    leadsVowelJamo: joins('x || chr(4449)'),
    followsRegionalIndicator: joins('chr(127462) || x'),
    followsEmojiJoiner: joins('chr(128512) || chr(8205) || x'),
    joinsEmojiPair: joins('chr(128512) || x || chr(128512)'),
    foldsIntoEmoji: joins('chr(128512) || x || chr(8205) || chr(128512)'),
    followsLinker: joins('chr(2325) || chr(2381) || x'),
    linksConsonants: joins('chr(2325) || x || chr(2325)'),
    extendsConjunct: joins('chr(2325) || x || chr(2381) || chr(2325)'),
  };
  const names = Object.keys(probes) as ProbeName[];
  const sql = `WITH points AS (SELECT i, chr(i) AS x FROM (${codePoints})),
    probed AS (SELECT i, ${names.map((name) => `${probes[name]} AS "${name}"`).join(', ')} FROM points)
    SELECT i, ${names.map((name) => `"${name}"`).join(', ')} FROM probed WHERE ${names.filter((name) => name !== 'joinsAfterPrepend' && name !== 'joinsEmojiPair' && name !== 'foldsIntoEmoji' && name !== 'leadsVowelJamo').map((name) => `"${name}"`).join(' OR ')}`;
  const letters = new Map<number, GraphemeClassLetter>();
  for (const row of (await connection.runAndReadAll(sql)).getRowObjects()) {
    const probe = row as Probe;
    const bound = boundClassOf(probe);
    const conjunct = probe.linksConsonants ? 'LINKER' : probe.followsLinker && !probe.extendsPrevious ? 'CONSONANT' : probe.extendsConjunct ? 'EXTEND' : 'NONE';
    const letter = (Object.keys(graphemeClasses) as GraphemeClassLetter[]).find((candidate) => {
      const classes = graphemeClasses[candidate];
      return (classes.bound === bound || (classes.bound === 'LV_OR_LVT' && (bound === 'LV' || bound === 'LVT'))) && classes.conjunct === conjunct;
    });
    if (!letter) throw new Error(`U+${probe.i.toString(16)}: DuckDB classes it ${bound}/${conjunct}, which records-sql/unicode/grapheme-classes.ts has no letter for`);
    if (letter === 'h') {
      const inBlock = probe.i >= firstHangulSyllable && probe.i < firstHangulSyllable + 11172;
      const expected = (probe.i - firstHangulSyllable) % hangulSyllablesPerLeadingConsonantAndVowel === 0 ? 'LV' : 'LVT';
      if (!inBlock || bound !== expected) throw new Error(`U+${probe.i.toString(16)}: DuckDB classes it ${bound}, not as the Hangul syllable rule says`);
    }
    if (letter !== 'o') letters.set(probe.i, letter);
  }
  return letters;
}

function boundClassOf(probe: Probe): string {
  if (probe.breaksBeforeMark) return probe.i === 13 ? 'CR' : probe.i === 10 ? 'LF' : probe.joinsAfterPrepend ? 'START' : 'CONTROL';
  if (probe.extendsPrevious) return probe.joinsEmojiPair ? 'ZWJ' : probe.foldsIntoEmoji ? 'EXTEND' : 'SPACINGMARK';
  if (probe.prepends) return 'PREPEND';
  if (probe.leadsJamo) return 'L';
  if (probe.followsLvtSyllable) return 'T';
  if (probe.followsLvSyllable) return 'V';
  if (probe.followsLeadingJamo) return probe.leadsVowelJamo ? 'LV' : 'LVT';
  if (probe.followsRegionalIndicator) return 'REGIONAL_INDICATOR';
  if (probe.followsEmojiJoiner) return 'EXTENDED_PICTOGRAPHIC';
  return 'OTHER';
}

/** DuckDB's upper() and lower() of each code point in `codePoints` (SQL giving column `i`) that they change. */
export async function readCaseMappings(connection: DuckDBConnection, codePoints: string): Promise<{ upper: Map<number, number>; lower: Map<number, number> }> {
  const sql = `SELECT i, unicode(upper(chr(i))) AS upper, unicode(lower(chr(i))) AS lower, length(upper(chr(i))) AS upper_length, length(lower(chr(i))) AS lower_length
    FROM (${codePoints}) WHERE upper(chr(i)) <> chr(i) OR lower(chr(i)) <> chr(i)`;
  const upper = new Map<number, number>();
  const lower = new Map<number, number>();
  for (const row of (await connection.runAndReadAll(sql)).getRowObjects()) {
    const { i, upper: upperCode, lower: lowerCode, upper_length: upperLength, lower_length: lowerLength } = row as Record<string, number>;
    if (Number(upperLength) !== 1 || Number(lowerLength) !== 1) throw new Error(`U+${i!.toString(16)}: DuckDB maps it to more than one code point, which records-sql/unicode/convert-case.ts does not expect`);
    if (upperCode !== i) upper.set(i!, upperCode!);
    if (lowerCode !== i) lower.set(i!, lowerCode!);
  }
  return { upper, lower };
}

/** Class letters as the runs `CodePointClasses` decodes; code points missing from `letters` are `o`. */
export function encodeClassRuns(letters: Map<number, GraphemeClassLetter>): string {
  const runs: string[] = [];
  let previous: string | undefined;
  for (let codePoint = 0; codePoint <= lastCodePoint; codePoint += 1) {
    const letter = letters.get(codePoint) ?? 'o';
    if (letter !== previous) runs.push(`${codePoint.toString(36)}${letter}`);
    previous = letter;
  }
  return runs.join(',');
}

/** A code point mapping as the runs `convertCase` decodes (`start.count.stride.delta`, base 36). */
export function encodeCaseRuns(mapping: Map<number, number>): string {
  const runs: Array<{ start: number; count: number; stride: number; delta: number }> = [];
  for (const [codePoint, mapped] of [...mapping].sort((left, right) => left[0] - right[0])) {
    const delta = mapped - codePoint;
    const last = runs[runs.length - 1];
    const next = last && (last.count === 1 ? codePoint - last.start : last.start + last.count * last.stride === codePoint ? last.stride : 0);
    if (last && last.delta === delta && (next === 1 || next === 2)) {
      last.stride = next;
      last.count += 1;
    } else {
      runs.push({ start: codePoint, count: 1, stride: 1, delta });
    }
  }
  return runs.map((run) => [run.start, run.count, run.stride, run.delta].map((part) => part.toString(36)).join('.')).join(',');
}
