import { lowerCaseTable, upperCaseTable } from './case-mapping-table.ts';

const decoded = new Map<string, Map<number, number>>();

/**
 * A case table (`case-mapping-table.ts`) as code point → code point. Each run is
 * `start.count.stride.delta` in base 36: `count` code points from `start`, `stride` apart, each
 * mapped to itself plus `delta` (Latin's Ā ā Ă ă … is one run of stride 2).
 */
function mappingOf(encoded: string): Map<number, number> {
  let mapping = decoded.get(encoded);
  if (!mapping) {
    mapping = new Map();
    for (const run of encoded.split(',')) {
      const [start, count, stride, delta] = run.split('.').map((part) => parseInt(part, 36)) as [number, number, number, number];
      for (let index = 0; index < count; index += 1) mapping.set(start + index * stride, start + index * stride + delta);
    }
    decoded.set(encoded, mapping);
  }
  return mapping;
}

/**
 * `upper` and `lower` as DuckDB computes them: one code point for one code point, by utf8proc's
 * simple case mapping (DuckDB's caseconvert.cpp), never JavaScript's full mapping. So 'ß' becomes
 * 'ẞ' and 'ﬁ' stays 'ﬁ' (not 'SS' and 'FI'), 'İ' becomes 'i' (not 'i̇'), and a final sigma is 'σ'.
 * The table is DuckDB's own, read from it, so the answer does not depend on the Unicode version of
 * the JavaScript engine the spreadsheet runs on.
 */
export function convertCase(text: string, direction: 'upper' | 'lower'): string {
  // ASCII-only text maps as in every table; the common case skips the lookups.
  if (!/[^\u0000-\u007f]/.test(text)) return direction === 'upper' ? text.toUpperCase() : text.toLowerCase();
  const mapping = mappingOf(direction === 'upper' ? upperCaseTable : lowerCaseTable);
  let converted = '';
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    const mapped = mapping.get(codePoint);
    converted += mapped === undefined ? character : String.fromCodePoint(mapped);
  }
  return converted;
}
