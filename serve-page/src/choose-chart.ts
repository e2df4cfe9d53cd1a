import type { Value } from './api-types.ts';

/** A chart a result can be drawn as: bars of `value` per `label`, or a line of `value` over `label`. */
export interface ChartChoice {
  kind: 'bar' | 'line';
  /** The result column of the labels (bars) or of the x axis (line). */
  label: number;
  /** The result column of the numbers. */
  value: number;
}

/** More bars than this read as a wall; the table stays the view. */
const maximumBars = 60;
const maximumPoints = 2_000;
const isoDate = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;
const timeLikeName = /(^|_)(year|month|day|date|week|quarter|period|time)s?($|_)/i;

/**
 * Whether a result reads better as a chart, and which: two columns, one of them numbers — a
 * group-by (a count or average per group) or a ranking (names with their numbers) is drawn as
 * bars, one per row in the result's order; a series over dates, or over years and other periods
 * named so, as a line. Anything else (one value, a list of names, several numbers a row, labels
 * that repeat) stays a table: a chart would have to guess what to draw.
 */
export function chooseChart(columns: readonly string[], rows: readonly Value[][]): ChartChoice | undefined {
  if (columns.length !== 2 || rows.length < 2) return undefined;
  const numeric = [0, 1].map((index) => rows.every((row) => row[index] === null || typeof row[index] === 'number') && rows.some((row) => typeof row[index] === 'number'));
  const value = numeric[1] ? 1 : numeric[0] ? 0 : undefined;
  if (value === undefined) return undefined;
  const label = 1 - value;
  const labels = rows.map((row) => row[label]);
  if (labels.some((cell) => cell === null)) return undefined;
  const dates = labels.every((cell) => typeof cell === 'string' && isoDate.test(cell));
  const periods = numeric[label] && timeLikeName.test(columns[label]!);
  if ((dates || periods) && rows.length >= 3 && rows.length <= maximumPoints && new Set(labels).size === labels.length) return { kind: 'line', label, value };
  if (rows.length > maximumBars || new Set(labels.map(String)).size !== labels.length) return undefined;
  return { kind: 'bar', label, value };
}
