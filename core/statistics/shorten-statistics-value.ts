/**
 * Longest listed value kept in stored statistics. A document can put a whole page into one string
 * attribute; 50 such values per column would make every prompt and `srag_tables` row huge. The
 * prompt shows even less (`renderStatistics` cuts at 80 characters).
 */
export const statisticsValueLength = 200;

/** A listed value as statistics keep it: strings past `statisticsValueLength` end in "…". */
export function shortenStatisticsValue(value: string | boolean): string | boolean {
  return typeof value === 'string' && value.length > statisticsValueLength ? `${value.slice(0, statisticsValueLength)}…` : value;
}
