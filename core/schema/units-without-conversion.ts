import type { Dimension } from '../normalization/measurement-units.ts';

const table: ReadonlyArray<readonly [Dimension, readonly string[]]> = [
  ['length', ['furlong', 'furlongs', 'league', 'leagues', 'nautical mile', 'nautical miles', 'nmi', 'fathom', 'fathoms', 'chain', 'chains', 'rod', 'rods',
    'light year', 'light years', 'light-year', 'light-years', 'au', 'astronomical unit', 'astronomical units', 'micrometre', 'micrometres', 'micrometer',
    'micrometers', 'micron', 'microns', 'µm', 'nanometre', 'nanometres', 'nanometer', 'nanometers', 'nm', 'decimetre', 'decimetres', 'dm']],
  ['mass', ['stone', 'stones', 'hundredweight', 'cwt', 'grain', 'grains', 'carat', 'carats', 'ton', 'tons', 'short ton', 'short tons', 'long ton', 'long tons',
    'microgram', 'micrograms', 'µg', 'mcg']],
  ['duration', ['ms', 'millisecond', 'milliseconds', 'microsecond', 'microseconds', 'fortnight', 'fortnights']],
  ['area', ['square mile', 'square miles', 'sq mi', 'sq. mi', 'mi2', 'square yard', 'square yards', 'sq yd', 'yd2', 'square inch', 'square inches', 'sq in',
    'in2', 'square centimetre', 'square centimetres', 'cm2', 'mm2']],
  ['proportion', ['permille', 'per mille', '‰', 'basis point', 'basis points', 'bp', 'bps', 'ppm']],
];

/**
 * Units of a dimension srag converts (length, mass, duration, area, proportion) that are not in its
 * conversion table. A column in one of them could only hold values written in that very unit:
 * every value written in km, kg, … would be refused at ingest. (Months and years are absent on
 * purpose: as labels they work, since nothing converts into them either way.)
 */
export const unitsWithoutConversion: ReadonlyMap<string, Dimension> = new Map(
  table.flatMap(([dimension, spellings]) => spellings.map((spelling) => [spelling, dimension] as const)),
);
